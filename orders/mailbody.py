"""The new text of a reply, as real mail clients send it (issue 29): the orders a player typed
above the quoted call for orders, without the quote, the signature or the attachments.

Pure: Python's ``email`` package only. Handles
- multipart/alternative (the text part preferred) and HTML-only mail (its text, quotes and
  ``<blockquote>``/Gmail's ``gmail_quote`` left out);
- ``format=flowed`` (RFC 3676: soft line breaks joined, space-stuffing undone, DelSp);
- quoted text: ``>`` lines, and everything from the reply header down ("On … wrote:" as Gmail,
  Apple Mail and Thunderbird write it, Outlook's "-----Original Message-----", its
  "________________________________" rule and its "From: … Sent: …" block);
- signatures (the ``-- `` line of RFC 3676, "Sent from my iPhone");
- attachments (never read).
"""

from __future__ import annotations

import re
from email.message import EmailMessage, Message
from html.parser import HTMLParser

# Where the quoted mail begins: the rest of the body is not the player's new text.
_REPLY_HEADERS = (
    re.compile(r"^\s*On\b.*\bwrote:\s*$", re.IGNORECASE),  # Gmail, Thunderbird, Apple Mail
    re.compile(r"^\s*Le\b.*\ba écrit\s*:\s*$", re.IGNORECASE),
    re.compile(r"^\s*Am\b.*\bschrieb\b.*:\s*$", re.IGNORECASE),
    re.compile(r"^\s*-{2,}\s*Original Message\s*-{2,}\s*$", re.IGNORECASE),  # Outlook
    re.compile(r"^\s*_{10,}\s*$"),  # Outlook's rule above its From/Sent block
    re.compile(r"^\s*From:\s.*$"),  # a forwarded or Outlook header block
)
_SIGNATURES = (
    re.compile(r"^-- ?$"),  # RFC 3676's separator (and its trimmed form)
    re.compile(r"^\s*Sent from my \w+", re.IGNORECASE),
    re.compile(r"^\s*Get Outlook for \w+", re.IGNORECASE),
)
# "On Fri, 27 Nov 2026 at 09:12, Umpire <orders+…@example.org>" wrapped before "wrote:"
_WRAPPED_ON = re.compile(r"^\s*On\b.*\d", re.IGNORECASE)


def reply_text(msg: Message) -> str:
    """The player's new text in ``msg``: the body's text part (or its HTML's text), unflowed,
    cut at the quoted mail and the signature, quoted lines left out."""
    return new_text(body_text(msg))


def body_text(msg: Message) -> str:
    """The text of the body: the first text/plain part not sent as an attachment, else the
    first text/html part's text; ``""`` when there is neither."""
    plain = html = None
    for part in msg.walk() if msg.is_multipart() else [msg]:
        if part.is_multipart() or part.get_content_disposition() == "attachment":
            continue
        kind = part.get_content_type()
        if kind == "text/plain" and plain is None:
            plain = part
        elif kind == "text/html" and html is None:
            html = part
    if plain is not None:
        text = _decoded(plain)
        params = {k.lower(): v.lower() for k, v in plain.get_params() or []}
        if params.get("format") == "flowed":
            text = unflow(text, delsp=params.get("delsp") == "yes")
        return text
    if html is not None:
        return html_text(_decoded(html))
    return ""


def _decoded(part: Message) -> str:
    payload = part.get_payload(decode=True) or b""
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:  # a charset Python does not know
        return payload.decode("utf-8", errors="replace")


def unflow(text: str, *, delsp: bool = False) -> str:
    """RFC 3676: a line ending in a space goes on in the next (with its space dropped under
    DelSp=yes); a leading space added by space-stuffing is removed. Quoted lines keep their
    depth and are joined only with lines of the same depth."""
    out: list[str] = []
    carry = None  # (depth, text so far) of a flowed line waiting for its continuation
    for raw in text.replace("\r\n", "\n").split("\n"):
        depth = len(raw) - len(raw.lstrip(">"))
        line = raw[depth:]
        if line.startswith(" "):
            line = line[1:]  # space-stuffing
        flowed = line.endswith(" ") and line != "-- "
        if delsp and flowed:
            line = line[:-1]
        if carry is not None and carry[0] == depth:
            line = carry[1] + line
        elif carry is not None:
            out.append(">" * carry[0] + (" " if carry[0] else "") + carry[1])
        carry = (depth, line) if flowed else None
        if not flowed:
            out.append(">" * depth + (" " if depth else "") + line)
    if carry is not None:
        out.append(">" * carry[0] + (" " if carry[0] else "") + carry[1])
    return "\n".join(out)


def new_text(text: str) -> str:
    """``text`` cut where the quoted mail or the signature begins, ``>`` lines left out."""
    lines = text.replace("\r\n", "\n").split("\n")
    kept: list[str] = []
    for i, line in enumerate(lines):
        if any(p.match(line) for p in _SIGNATURES):
            break
        if any(p.match(line) for p in _REPLY_HEADERS):
            break
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if _WRAPPED_ON.match(line) and re.search(r"\bwrote:\s*$", nxt, re.IGNORECASE):
            break
        if line.lstrip().startswith(">"):
            continue
        kept.append(line)
    return "\n".join(kept).strip()


_VOID = frozenset({"br", "img", "hr", "meta", "input", "link", "wbr", "col", "area", "base"})
_QUOTE_CLASSES = frozenset({"gmail_quote", "gmail_signature", "moz-cite-prefix", "moz-signature"})
_QUOTE_IDS = frozenset({"divRplyFwdMsg", "appendonsend", "Signature", "x_divRplyFwdMsg"})


class _Text(HTMLParser):
    """The text of an HTML body, one line a block, quotes left out."""

    BLOCKS = frozenset({"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "table", "ul"})
    SKIPPED = frozenset({"style", "script", "head", "title", "blockquote"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping: list[str] = []
        self.stopped = False

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:
            if tag == "br" and not self.skipping and not self.stopped:
                self.parts.append("\n")
            return
        found = dict(attrs)
        classes = set((found.get("class") or "").split())
        if classes & _QUOTE_CLASSES or found.get("id") in _QUOTE_IDS:
            self.stopped = True  # the quoted mail begins: nothing after it is new
        if self.stopped:
            return
        if self.skipping or tag in self.SKIPPED:
            self.skipping.append(tag)  # everything inside a quote is skipped with it
            return
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if self.stopped:
            return
        if self.skipping:
            if tag in self.skipping:
                while self.skipping and self.skipping.pop() != tag:
                    pass
            return
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self.skipping and not self.stopped:
            self.parts.append(data.replace("\xa0", " "))


# The characters of an HTML body read, from its <body> on: a player's new text comes first (his
# client puts the quote after it), and Python's HTMLParser takes a time that grows with the
# square of a run of tags never closed ("<a <a <a ...": 77 KB of it held the worker 50 s; 12 KB
# of it takes about a second, a body of real mail a few milliseconds).
HTML_READ = 12_000


def html_text(html: str) -> str:
    """The text of an HTML mail body: blocks on lines of their own, quotes and styles left out;
    the first ``HTML_READ`` characters from its ``<body>`` (a client's long head of styles is
    skipped, not counted).

    >>> html_text('<div>Frederick 4 4</div><div>READY<br></div><blockquote>old</blockquote>')
    'Frederick 4 4\\nREADY'
    """
    body = html.lower().find("<body")
    parser = _Text()
    parser.feed(html[max(body, 0) :][:HTML_READ])
    parser.close()
    text = "".join(parser.parts)
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return "\n".join(line for line in lines if line).strip()


def message_size(msg: EmailMessage | Message) -> int:
    """The size of the message as sent (headers and body), for the 100 KB limit."""
    return len(msg.as_bytes())
