/* The map widget of the play pages (docs/map-widget.md).
 *
 * Leaflet with L.CRS.Simple over the tile pyramid of maps/core/tiles.py: at zoom 0 one map unit
 * is one pixel of the map drawn with hexes of corner radius grid.hex; a point (x, y) of the
 * overlay JSON is L.latLng(-y, x). The seat's layer (counters, supply sources, orders, reach)
 * comes from the overlay JSON of orders/widget_views.py and is drawn on top.
 *
 * Orders mode: tap one of your counters (the forces of a hex are one counter, a stack: a tap
 * lists them, a tap on a row chooses), the hexes it can still reach light up with their MP cost;
 * tap one (or a counter standing in it) and the march is saved through the orders page's own
 * endpoint (save_march) with htmx, which swaps #play (the list of orders) as a typed order
 * would. After every htmx swap the overlay is read again, so the map and the list stay in step.
 * Ready waits for what the page holds but has not saved: static/js/readyguard.js, loaded by
 * the pages with a Ready button.
 *
 * Loading (docs/map-widget.md, "Figures"): Leaflet and this file are async scripts, so the page's
 * own forms are usable at DOMContentLoaded whatever they do; this file waits for Leaflet. The
 * first layer is the one the page embeds (#mapwidget-data), so the map asks nothing of the
 * server but its tiles. It marks performance entries "mapwidget:layer" (the seat's layer drawn)
 * and "mapwidget:tiles" (the tiles of the first view loaded) for bench/map_widget_page_bench.py.
 */
(function () {
  "use strict";

  var SQRT3 = Math.sqrt(3);
  var GAP = 3;
  /* A counter's tap target, its face and the transparent pad round it, is at least this many CSS
     px each way (WCAG 2.5.5 and Apple's HIG: 44; a newcomer's phone playthrough found 32 too
     small for a thumb). No two targets overlap: the forces of one hex, and below zoom 2 those of
     hexes closer than a target, are drawn as one counter, a stack with a count badge, and a tap
     on it opens the list of its forces to pick from (stacks, openPicker). */
  var TARGET = 44;
  /* The most zoomed-out view the orders map opens at (a hex 28 px wide, counters labelled), and
     the room kept round the hexes it opens on (px each side, x and y). */
  var OPEN_ZOOM = 1;
  var OPEN_MARGIN = [64, 48];
  /* Counter faces (px) and their labels by zoom: they grow with the hexes (a hex is 28 px wide
     at zoom 1, 55 at zoom 2). Every face is labelled, 10 px at the least: with one counter per
     target's room the faces never cover one another, whatever the zoom. */
  function counterSize(zoom) {
    if (zoom >= 2.5) return [48, 32, 13];
    if (zoom >= 1.5) return [40, 26, 12];
    return [32, 22, 10];
  }
  /* The tap target of a counter of ``size`` (its pad): the face and a gap, at least TARGET each
     way; also the room a counter keeps to itself (stacks). */
  function targetSize(size) {
    return [Math.max(size[0] + GAP, TARGET), Math.max(size[1] + GAP, TARGET)];
  }

  /* The most of ``points`` (zoom-0 map units) that one view ``span`` map units wide and high
     holds. A best view can be slid left and up until a point lies on its left edge and one on
     its top edge, so those are the only views tried; between views that hold as many, the one
     with the earlier point wins (the focus comes strongest first). Returns the points held.
     E.g. [[0, 0], [500, 0], [510, 20], [2, 5]] in a span of [100, 100]: the first and the last
     (two points, and the first of all), not the two in the East. */
  function mostInView(points, span) {
    var best = [], bestFirst = Infinity;
    points.forEach(function (a) {
      points.forEach(function (b) {
        var held = [], first = Infinity;
        points.forEach(function (p, i) {
          if (p[0] >= a[0] && p[0] <= a[0] + span[0] && p[1] >= b[1] && p[1] <= b[1] + span[1]) {
            held.push(p);
            first = Math.min(first, i);
          }
        });
        if (held.length > best.length || (held.length === best.length && first < bestFirst)) {
          best = held;
          bestFirst = first;
        }
      });
    });
    return best;
  }

  /* A counter in a city's hex keeps off the side of the city's symbol where the tiles print its
     name (``side``: name_side of the overlay, from name_side in maps/core/render.py): its face's
     edge stops where the name begins, 0.7 hex radii from the centre, so "Breslau" is not read
     "reslau". The tiles print names from zoom 0 (LABELS_FROM); a hex's radius is
     grid.hex * 2^zoom screen pixels. */
  function clearOfName(side, zoom, hexPx, w, h) {
    if (!side || Math.round(zoom) < 0) {
      return [0, 0];
    }
    var room = 0.7 * hexPx - 3;
    if (side === "right") return [Math.min(0, room - w / 2), 0];
    if (side === "left") return [Math.max(0, w / 2 - room), 0];
    return [0, Math.min(0, 0.75 * hexPx - 2 - h / 2)];
  }

  /* Below zoom 2 a counter is wider than a hex and can cover a name the tiles print nearby (its
     own city's, moved clear by clearOfName, or a neighbour's). Each name the overlay lists
     (names_near in maps/overlay.py) is measured where the tiles print it (name_side, the
     renderer's type sizes); one a counter covers is drawn again as a plate in the first place
     near it that no counter and no other plate covers. */
  var measurer = null;
  function textWidth(text, px, bold) {
    measurer = measurer || document.createElement("canvas").getContext("2d");
    measurer.font = (bold ? "bold " : "") + px + 'px "DejaVu Sans", Verdana, sans-serif';
    return measurer.measureText(text).width;
  }
  function overlaps(a, b) {
    return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  }
  function namePlace(n, at, hexPx) {
    var px = n.star ? Math.max(7, Math.floor(hexPx * 0.78)) : Math.max(6, Math.floor(hexPx * 0.62));
    var w = textWidth(n.name, px, n.star);
    var x0 = n.side === "left" ? at.x - 0.7 * hexPx - w : n.side === "below" ? at.x - w / 2 : at.x + 0.7 * hexPx;
    var y0 = n.side === "below" ? at.y + 0.75 * hexPx : at.y - px / 2;
    return { px: px, w: w, box: [x0, y0, x0 + w, y0 + px] };
  }

  function ll(xy) {
    return L.latLng(-xy[1], xy[0]);
  }

  function hexCorners(grid, xy) {
    var out = [];
    for (var i = 0; i < 6; i++) {
      var a = (Math.PI / 180) * (60 * i - 30);
      out.push(L.latLng(-(xy[1] + grid.hex * Math.sin(a)), xy[0] + grid.hex * Math.cos(a)));
    }
    return out;
  }

  function pad(n) {
    return (n < 10 ? "0" : "") + n;
  }

  /* The hex under a point of the map (zoom-0 units), as maps/core/hexgrid.py numbers them:
     axial (q, r) from the pixel, rounded in cube coordinates, then the odd-r offset id "CCRR". */
  function hexAt(grid, latlng) {
    var x = latlng.lng - grid.dx;
    var y = -latlng.lat - grid.dy;
    var rf = y / (1.5 * grid.hex);
    var qf = x / (SQRT3 * grid.hex) - rf / 2;
    var sf = -qf - rf;
    var q = Math.round(qf), r = Math.round(rf), s = Math.round(sf);
    var dq = Math.abs(q - qf), dr = Math.abs(r - rf), ds = Math.abs(s - sf);
    if (dq > dr && dq > ds) q = -r - s;
    else if (dr > ds) r = -q - s;
    var col = q + (r - (r & 1)) / 2;
    if (col < 0 || r < 0 || col >= grid.columns || r >= grid.rows) return null;
    return pad(col + 1) + pad(r + 1);
  }

  function hexCentre(grid, id) {
    var col = parseInt(id.slice(0, 2), 10) - 1, row = parseInt(id.slice(2), 10) - 1;
    var q = col - (row - (row & 1)) / 2;
    return [grid.hex * SQRT3 * (q + row / 2) + grid.dx, grid.hex * 1.5 * row + grid.dy];
  }

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  /* The head of an order's arrow, turned along its last step, and its cost beside it. */
  function arrowHead(angle, colour, unit, text) {
    var box = document.createElement("span");
    var tip = document.createElement("span");
    tip.className = "mw-tip";
    tip.textContent = "\u25B6";
    tip.style.transform = "rotate(" + angle.toFixed(1) + "deg)";
    tip.style.color = colour;
    var cost = document.createElement("span");
    cost.className = "mw-cost";
    cost.dataset.unit = unit;
    cost.textContent = text;
    box.appendChild(tip);
    box.appendChild(cost);
    return box;
  }

  function csrf() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function Widget(el) {
    this.el = el;
    this.grid = JSON.parse(el.dataset.grid);
    this.mode = el.dataset.mode;
    this.status = document.getElementById("mapwidget-status");
    this.unit = "";
    this.data = null;
    var g = this.grid;
    var bounds = L.latLngBounds([[-g.height, 0], [0, g.width]]);
    this.map = L.map(el, {
      crs: L.CRS.Simple,
      minZoom: g.minZoom - 1,
      maxZoom: g.maxNativeZoom + 1,
      zoomSnap: 0.5,
      attributionControl: false,
      doubleClickZoom: false, // two taps on two hexes are two steps, not a zoom
      fadeAnimation: false, // tiles show at once (and screenshots never catch them half-faded)
      maxBounds: bounds.pad(0.25),
      maxBoundsViscosity: 0.8,
    });
    var tiles = L.tileLayer(g.tiles, {
      bounds: bounds,
      tileSize: 256,
      noWrap: true,
      minNativeZoom: g.minZoom,
      maxNativeZoom: g.maxNativeZoom,
      minZoom: g.minZoom - 1,
      maxZoom: g.maxNativeZoom + 1,
    }).addTo(this.map);
    tiles.once("load", function () {
      el.dataset.tiles = "1";
      mark("mapwidget:tiles");
    });
    this.bounds = bounds; // no view until the overlay says where the seat's forces are: no tiles
    // the counters' pads, under every counter and over the map's lines and lit hexes
    // (z-index in play.css): a tap on a counter's face is always that counter's
    this.map.createPane("targets");
    this.layers = {
      supply: L.layerGroup().addTo(this.map),
      reach: L.layerGroup().addTo(this.map),
      orders: L.layerGroup().addTo(this.map),
      counters: L.layerGroup().addTo(this.map),
    };
    this.centred = false;
    var self = this;
    // Leaflet measures its box once: follow the box as the page lays it out (the style sheet or
    // the lines above the map landing after this async script, a phone turned), or a pan to a
    // hex centres it where the box was, not where it is.
    if (window.ResizeObserver) {
      new ResizeObserver(function () {
        self.map.invalidateSize(false);
        self.reopen();
      }).observe(el);
    }
    // A finger or a mouse on the map: from then on the view is the player's, never opened again.
    ["pointerdown", "wheel", "keydown"].forEach(function (kind) {
      el.addEventListener(kind, function () { self.moved = true; }, { passive: true });
    });
    this.map.on("zoomend viewreset load", function () {
      el.dataset.zoom = String(self.map.getZoom());
      if (self.data) {
        self.draw();
      }
    });
    this.sheet = document.getElementById("mapwidget-sheet");
    this.version = "";
    if (this.mode === "history") {
      this.turns = document.getElementById("mapwidget-turns");
      Array.prototype.forEach.call(this.turns.querySelectorAll("button"), function (b) {
        b.addEventListener("click", function () {
          if (b.dataset.go === "play") {
            self.play(b);
            return;
          }
          self.stop();
          var to = self.data && self.data[b.dataset.go];
          if (to) {
            self.version = String(to);
            self.load();
          }
        });
      });
    }
    if (this.mode === "deploy") {
      // The page's problems link to their hex: show it on the map with its sheet open.
      document.addEventListener("click", function (ev) {
        var a = ev.target && ev.target.closest ? ev.target.closest("a.hex-link") : null;
        if (!a || !a.dataset.hex || !self.data || !self.data.deploy) {
          return;
        }
        ev.preventDefault();
        self.el.scrollIntoView({ block: "start" });
        self.show(a.dataset.hex, Math.max(self.map.getZoom(), 2));
        self.openSheet(a.dataset.hex);
      });
      this.map.on("click", function (ev) {
        var id = hexAt(self.grid, ev.latlng);
        if (id) {
          self.openSheet(id);
        }
      });
    }
    document.body.addEventListener("htmx:afterSettle", function (ev) {
      if (ev.target && (ev.target.id === "play" || ev.target.id === "sheet")) {
        self.followList();
        self.load();
      }
    });
    this.followList();
    this.load();
  }

  /* The war's play control (docs/season-end.md): one phase a second and a half, from the
     start when at the last; pressed again, or any other button, it stops. */
  Widget.prototype.play = function (button) {
    var self = this;
    if (this.timer) {
      this.stop();
      return;
    }
    button.setAttribute("aria-pressed", "true");
    button.textContent = "\u275a\u275a Pause";
    if (this.data && !this.data.next && this.data.first !== undefined) {
      this.version = String(this.data.first);
      this.load();
    }
    this.timer = window.setInterval(function () {
      if (!self.data || !self.data.next) {
        self.stop();
        return;
      }
      if (self.el.dataset.loading) {
        return;
      }
      self.version = String(self.data.next);
      self.load();
    }, 1500);
  };

  Widget.prototype.stop = function () {
    if (this.timer) {
      window.clearInterval(this.timer);
      this.timer = null;
    }
    var b = this.turns && this.turns.querySelector("[data-go=play]");
    if (b) {
      b.setAttribute("aria-pressed", "false");
      b.textContent = "\u25b6 Play";
    }
  };

  /* The unit chosen in the list below (the accessible alternative) is the map's unit too. */
  Widget.prototype.followList = function () {
    var input = document.querySelector("#builder form.order-form input[name=unit]");
    if (input && input.value) {
      this.unit = input.value;
    }
  };

  Widget.prototype.say = function (text) {
    if (this.status) {
      this.status.textContent = text;
    }
  };

  Widget.prototype.load = function () {
    var self = this;
    var embedded = document.getElementById("mapwidget-data");
    if (embedded) {
      // the page's own layer, once: later loads ask the server (the draft may have changed)
      embedded.parentNode.removeChild(embedded);
      try {
        this.take(JSON.parse(embedded.textContent));
        return;
      } catch (e) {
        /* fall through to the request */
      }
    }
    var url = this.el.dataset.overlay + (this.unit ? "?unit=" + encodeURIComponent(this.unit) : "");
    if (this.mode === "history") {
      url = this.el.dataset.history + (this.version ? "?version=" + this.version : "");
    }
    this.el.dataset.loading = "1";
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) {
        if (!r.ok) {
          throw new Error("The map's layer could not be loaded (" + r.status + ").");
        }
        return r.json();
      })
      .then(function (data) {
        self.take(data);
      })
      .catch(function (err) {
        self.el.dataset.loading = "";
        if (!self.centred) {
          self.centred = true;
          self.map.fitBounds(self.bounds);
        }
        self.say(err.message);
      });
  };

  Widget.prototype.take = function (data) {
    this.data = data;
    this.centre();
    this.follow();
    this.draw();
    this.el.dataset.loading = "";
    if (!this.el.dataset.version) {
      mark("mapwidget:layer");
    }
    this.el.dataset.version = String(data.version);
  };

  Widget.prototype.draw = function () {
    var d = this.data;
    var self = this;
    this.closePicker(); // its stack is drawn anew, perhaps with other members
    Object.keys(this.layers).forEach(function (k) {
      self.layers[k].clearLayers();
    });
    // a supply source's ring stays inside its hex, short of the city's name (0.7 hex radii out)
    var ring = Math.max(6, Math.min(15, 0.65 * this.grid.hex * Math.pow(2, this.map.getZoom())));
    (d.supply || []).forEach(function (s) {
      L.circleMarker(ll(s.xy), {
        radius: ring,
        color: "#1b7a2c",
        weight: 3,
        fill: false,
        dashArray: "4 3",
        interactive: false,
        className: "mw-supply",
      }).addTo(self.layers.supply);
    });
    (d.orders || []).forEach(function (o) {
      self.drawOrder(o);
    });
    (d.seen || []).forEach(function (m) {
      self.drawSeen(m);
    });
    if (d.deploy) {
      this.drawDeploy(d.deploy);
    } else {
      this.drawCounters(d.counters || []);
    }
    this.namePlates(d.names || []);
    if (d.reach) {
      this.drawReach(d.reach);
    }
    (d.battles || []).forEach(function (b) {
      L.marker(ll(b.xy), {
        interactive: false,
        keyboard: false,
        icon: L.divIcon({ className: "mw-mark mw-battle", iconSize: [0, 0], html: '<span title="Battle">&#9876;</span>' }),
      }).addTo(self.layers.orders);
    });
    (d.sieges || []).forEach(function (b) {
      L.circleMarker(ll(b.xy), { radius: 22, color: "#5d2a7a", weight: 3, dashArray: "2 4", fill: false, interactive: false, className: "mw-siege" })
        .addTo(self.layers.orders);
    });
    if (this.turns) {
      this.turns.querySelector(".mw-label").textContent = d.label || "";
      this.turns.querySelector("[data-go=prev]").disabled = !d.prev;
      this.turns.querySelector("[data-go=next]").disabled = !d.next;
      var first = this.turns.querySelector("[data-go=first]");
      if (first) {
        first.disabled = !d.prev;
      }
    }
  };

  /* Open centred on the seat's own forces: all of them if they fit at zoom 1 or closer, else
     the strongest one (focus[0]) at zoom 2 (the whole map is one pinch away). The orders page
     (``frame``) opens on the force chosen (follow), else on its focus (the forces that still
     have a march, or the battle to decide): as much of it as one view at zoom 1 (OPEN_ZOOM) or
     closer holds, never further out, where every counter is labelled and a thumb's width; the
     line under the map says how many hexes of it lie outside (docs/map-widget.md). */
  Widget.prototype.centre = function () {
    var d = this.data;
    if (this.centred) {
      return;
    }
    this.centred = true;
    if (d.chosen && d.chosen.xy && d.chosen.unit === this.unit && this.mode === "orders") {
      return; // follow() opens on the force chosen
    }
    if (!d.focus || !d.focus.filter(Boolean).length) {
      this.map.fitBounds(this.bounds, { animate: false });
      return;
    }
    this.map.invalidateSize(false);
    this.openedSize = this.map.getSize();
    var focus = d.focus.filter(Boolean);
    var b = L.latLngBounds(focus.map(ll)).pad(0.15);
    var z = Math.min(this.map.getBoundsZoom(b), 2);
    if (d.frame && this.mode === "orders") {
      this.open(focus);
    } else if (z >= 1) {
      this.map.fitBounds(b, { maxZoom: 2, animate: false });
    } else {
      this.map.setView(ll(focus[0]), 2, { animate: false });
    }
  };

  /* The box grew or shrank after the first view was chosen (the style sheet or the lines above
     the map landing late, on a slow phone): the first view is chosen again for the box as it
     is, unless the player has touched the map since. */
  Widget.prototype.reopen = function () {
    var was = this.openedSize;
    if (!was || this.moved || !this.data) {
      return;
    }
    var size = this.map.getSize();
    if (Math.abs(size.x - was.x) < 24 && Math.abs(size.y - was.y) < 24) {
      return;
    }
    this.centred = false;
    this.centre();
  };

  /* The orders map's first view: the most of ``focus`` one view at OPEN_ZOOM holds (mostInView),
     brought as close as zoom 2 when they are fewer or nearer. */
  Widget.prototype.open = function (focus) {
    var size = this.map.getSize();
    var scale = Math.pow(2, OPEN_ZOOM);
    var room = L.point(2 * OPEN_MARGIN[0], 2 * OPEN_MARGIN[1]);
    var span = [Math.max(0, size.x - room.x) / scale, Math.max(0, size.y - room.y) / scale];
    var held = mostInView(focus, span);
    var b = L.latLngBounds(held.map(ll));
    var z = this.map.getBoundsZoom(b, false, room);
    this.map.setView(b.getCenter(), Math.max(OPEN_ZOOM, Math.min(z, 2)), { animate: false });
    var out = focus.length - held.length;
    this.el.dataset.outside = String(out);
    if (!this.status) {
      return;
    }
    if (this.openStatus === undefined) {
      this.openStatus = this.status.textContent; // (the line as the page drew it, said once)
    } else if (this.status.textContent.indexOf(this.openStatus) !== 0) {
      return; // the line has moved on since (a force chosen): it is not said again
    }
    if (out > 0) {
      this.say(
        this.openStatus + " Your forces in " + (out === 1 ? "one more hex are" : out + " more hexes are") +
          " outside this view: zoom out (\u2212) to see them, or choose one in the list."
      );
    } else if (this.status.textContent !== this.openStatus) {
      this.say(this.openStatus);
    }
  };

  /* A line with an arrow head at its end: ``style`` for Leaflet's polyline, ``data`` set as
     data- attributes of its path (what the tests read), the head's colour and words. */
  /* The force chosen, in the list below or by a tap, comes to the middle of the map, close
     enough (zoom 2 at least) for its lit hexes to be tapped; once per choice, so a pan or a zoom
     of the player's own is kept while he writes its line. */
  Widget.prototype.follow = function () {
    var c = this.data && this.data.chosen;
    if (this.mode !== "orders" || !this.unit) {
      this.followed = "";
      return;
    }
    if (!c || !c.xy || c.unit !== this.unit || this.followed === this.unit) {
      return;
    }
    this.followed = this.unit;
    this.map.invalidateSize(false);
    this.map.setView(ll(c.xy), Math.max(this.map.getZoom() || 0, 2), { animate: false });
    this.el.dataset.followed = this.unit;
  };

  Widget.prototype.drawArrow = function (pts, style, data, head, unit, text) {
    var line = L.polyline(pts, Object.assign({ interactive: false }, style)).addTo(this.layers.orders);
    var el = line.getElement();
    if (el) {
      Object.keys(data).forEach(function (k) {
        el.setAttribute("data-" + k, data[k]);
      });
    }
    var a = this.map.latLngToLayerPoint(pts[pts.length - 2]);
    var b = this.map.latLngToLayerPoint(pts[pts.length - 1]);
    var angle = (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
    L.marker(pts[pts.length - 1], {
      interactive: false,
      keyboard: false,
      icon: L.divIcon({ className: "mw-head", iconSize: [0, 0], html: arrowHead(angle, head, unit, text) }),
    }).addTo(this.layers.orders);
  };

  Widget.prototype.drawOrder = function (o) {
    if (!o.line || o.line.length < 2) {
      return;
    }
    var colour = o.valid ? "#b00020" : "#7a4a00";
    var cost = o.spent === null ? "" : o.spent + "/" + o.allowance + " MP";
    this.drawArrow(
      o.line.map(ll),
      { color: colour, weight: 5, opacity: 0.9, dashArray: o.valid ? null : "6 6", className: "mw-arrow" },
      { unit: o.unit, path: o.path },
      colour,
      o.unit,
      o.name + " " + cost
    );
  };

  /* Another army's move the seat saw (history): a dashed line in the army's colour, edged dark
     so that white and yellow show on the map, from where its commander was seen to where he is
     seen now; the way between is not known, so the line is straight. */
  Widget.prototype.drawSeen = function (m) {
    var colour = ((this.data.colours || {})[m.army] || ["#555555"])[0];
    var pts = m.line.map(ll);
    L.polyline(pts, { color: "#111111", weight: 6, opacity: 0.7, interactive: false }).addTo(this.layers.orders);
    var war = m.relation === "war"; // the whole war (docs/season-end.md): every move, solid
    this.drawArrow(
      pts,
      { color: colour, weight: 3, dashArray: war ? null : "8 6", className: war ? "mw-seen mw-war" : "mw-seen" },
      { from: m.from, to: m.to },
      "#111111",
      "",
      war ? m.name : m.name + " (seen)"
    );
  };

  /* The counters of ``list`` drawn: reports over their hexes, every other counter in a stack
     (stacks), one face and one tap target each. */
  Widget.prototype.drawCounters = function (list) {
    var self = this;
    var zoom = this.map.getZoom();
    var size = counterSize(zoom);
    var target = targetSize(size);
    var reports = [];
    var forces = [];
    list.forEach(function (c) {
      (c.kind === "report" ? reports : forces).push(c);
    });
    this.stacks(forces, zoom, size, target).forEach(function (s) {
      self.drawStack(s, size, target);
    });
    reports.forEach(function (c) {
      // above the counters of its hex (never hidden under a stack); taps pass through it
      L.marker(ll(c.xy), {
        interactive: false,
        keyboard: false,
        zIndexOffset: 1000,
        icon: L.divIcon({ className: "mw-report", iconSize: [0, 0], html: "<span>" + esc(c.label) + "</span>" }),
      }).addTo(self.layers.counters);
    });
  };

  /* Which counter of a stack shows on top: the force chosen, then the seat's own, then the
     others as the layer lists them. */
  Widget.prototype.rank = function (c) {
    if (c.unit && c.unit === this.unit) return 0;
    return c.relation === "owner" ? 1 : 2;
  };

  /* The stacks to draw: the counters of each hex are one stack; a hex whose counter would lie
     within a target of a stack's (below zoom 2, where hexes are narrower than a target) joins
     it. Greedy, stacks ranked by their top counter (then as listed), so the chosen force's and
     the seat's own stay where they stand and no two targets overlap. Each stack: ``members``
     (its top first), ``hexes``, ``off`` (its face's offset from its hex's centre, clearOfName).
     E.g. at zoom 1 (hexes 28 px apart) the counters of two neighbouring hexes are one stack of
     two; at zoom 2 (55 px) two. */
  Widget.prototype.stacks = function (list, zoom, size, target) {
    var self = this;
    var hexPx = this.grid.hex * Math.pow(2, zoom);
    var byHex = {};
    var groups = [];
    list.forEach(function (c, i) {
      var g = byHex[c.hex];
      if (!g) {
        g = byHex[c.hex] = { hex: c.hex, members: [], first: i };
        groups.push(g);
      }
      g.members.push(c);
    });
    groups.forEach(function (g) {
      // (a stable sort: the layer's order within a rank)
      g.members.sort(function (a, b) { return self.rank(a) - self.rank(b); });
      var top = g.members[0];
      g.rank = self.rank(top);
      g.off = clearOfName(top.name_side, zoom, hexPx, size[0], size[1]);
      var p = self.map.latLngToLayerPoint(ll(top.xy));
      g.at = [p.x + g.off[0], p.y + g.off[1]];
    });
    groups.sort(function (a, b) { return a.rank - b.rank || a.first - b.first; });
    var out = [];
    groups.forEach(function (g) {
      if (g.taken) return;
      g.taken = true;
      var s = { members: g.members.slice(), hexes: [g.hex], off: g.off };
      groups.forEach(function (o) {
        if (!o.taken && Math.abs(o.at[0] - g.at[0]) < target[0] && Math.abs(o.at[1] - g.at[1]) < target[1]) {
          o.taken = true;
          s.members = s.members.concat(o.members);
          s.hexes.push(o.hex);
        }
      });
      out.push(s);
    });
    return out;
  };

  /* A counter's words: its label, where it stands and its flags (D, U: 3.1.4). */
  function counterText(c, where) {
    return c.label + (where ? " in " + c.hex : "") + (c.flags ? " (" + c.flags + ")" : "");
  }

  /* What a tap on the counter ``c`` does, on its face or its row in a stack's list. */
  Widget.prototype.act = function (c) {
    var here = c.unit && c.unit === this.unit ? null : this.litHex(c.hex);
    if (this.mode === "deploy") {
      this.openSheet(c.hex);
    } else if (here) {
      this.march(this.data.reach, here);
    } else if (this.canChoose(c)) {
      this.choose(c.unit === this.unit ? "" : c.unit);
    } else {
      this.say(counterText(c, true));
    }
  };

  Widget.prototype.canChoose = function (c) {
    return this.mode === "orders" && !!c.unit && !this.data.locked;
  };

  /* One stack ``s`` (stacks): the face of its top counter, a badge with the count when it holds
     more than one, and the pad round the face. A tap on a counter alone is that counter's; on a
     stack of one hex that is lit it marches the chosen force there (a battle or a siege begins
     on a hex with a counter in it), on a deployment's stack of one hex it opens the hex's sheet,
     and on any other stack it opens the list of its forces (openPicker). */
  Widget.prototype.drawStack = function (s, size, target) {
    var self = this;
    var c = s.members[0];
    var n = s.members.length;
    var one = s.hexes.length === 1;
    var w = size[0], h = size[1];
    var off = s.off;
    var chosen = c.unit && c.unit === this.unit;
    // a counter in a lit hex stands for the hex: a tap on it marches the chosen force there
    var lit = chosen || !one ? null : this.litHex(c.hex);
    var colours = this.data.colours || {};
    var colour = colours[c.army] || ["#888888", "#ffffff"];
    var label = n === 1 ? counterText(c, true)
      : n + " counters in " + (one ? c.hex : "hexes " + s.hexes.join(", ")) + ": " +
        s.members.map(function (m) { return counterText(m, !one); }).join(", ");
    label += lit ? ": tap to march " + this.data.reach.name + " here (" + lit.cost + " MP)"
      : n > 1 && !(this.mode === "deploy" && one) ? ": tap for the list" : "";
    // built as elements, styles set through the CSSOM: no inline style attribute for the CSP
    var html = document.createElement("button");
    html.type = "button";
    html.className = "mw-counter mw-" + c.relation + " mw-" + c.kind + (n > 1 ? " mw-stack" : "") +
      (chosen ? " chosen" : "") + (lit ? " mw-lit" : "");
    html.dataset.hex = c.hex;
    html.dataset.unit = n === 1 ? c.unit || "" : "";
    html.dataset.relation = c.relation;
    if (n > 1) {
      html.dataset.count = String(n);
      html.dataset.units = s.members.map(function (m) { return m.unit || ""; }).filter(Boolean).join(" ");
      html.setAttribute("aria-haspopup", "dialog");
      html.setAttribute("aria-expanded", "false");
      // the counter under the top one, in its own army's colour (another army's, if any)
      var under = s.members.filter(function (m) { return m.army !== c.army; })[0] || s.members[1];
      if (!lit) {
        html.style.boxShadow = "3px 3px 0 -1px " + (colours[under.army] || colour)[0] + ", 3px 3px 0 0 #111";
      }
    }
    html.title = label;
    html.style.width = w + "px";
    html.style.height = h + "px";
    html.style.fontSize = size[2] + "px";
    html.style.background = colour[0];
    html.style.color = colour[1];
    // a letter of the name less for each flag (D, U: 3.1.4), so the flags are never cut off
    html.textContent = c.flags ? c.short.slice(0, Math.max(2, 4 - c.flags.length)) : c.short;
    if (c.pts && n === 1) {
      // the whole war (docs/season-end.md): every counter's points under it (a stack's in its list)
      var pts = document.createElement("span");
      pts.className = "mw-pts";
      pts.textContent = c.pts;
      html.appendChild(pts);
    }
    if (c.flags) {
      // a hair space between the name and its flags: they are two words, for the eye and
      // for the accessible name (below), whichever of them the map's edge may hide
      html.appendChild(document.createTextNode("\u200a"));
      var sup = document.createElement("sup");
      sup.textContent = c.flags;
      html.appendChild(sup);
    }
    // the accessible name begins with what the counter shows, word for word (WCAG 2.5.3, label
    // in name: "Sax U: Saxe in 0508 (U)"; "SaxU" failed it when the edge hid the flag)
    var shown = html.textContent.replace(/\s+/g, " ").trim();
    html.setAttribute("aria-label", (shown ? shown + ": " : "") + label);
    var marker = L.marker(ll(c.xy), {
      keyboard: false,
      riseOnHover: true,
      zIndexOffset: c.relation === "owner" ? 1000 : 0,
      icon: L.divIcon({
        className: "mw-icon",
        iconSize: [w, h],
        iconAnchor: [w / 2 - off[0], h / 2 - off[1]],
        html: html,
      }),
    });
    if (n > 1) {
      // the count, on the face's corner: for the eye (the name says it in words); taps pass.
      // Added with the icon (a layer drawn before the map's "load" is added to it only then)
      var badge = document.createElement("span");
      badge.className = "mw-count";
      badge.setAttribute("aria-hidden", "true");
      badge.textContent = String(n);
      marker.on("add", function () {
        marker.getElement().appendChild(badge);
      });
    }
    marker.addTo(this.layers.counters);
    // the pad: the counter's tap target round its face, transparent, in the "targets" pane
    // under every face, so a tap on a face is always that face's; hidden from screen readers
    // (the face is the button)
    var pad = document.createElement("div");
    pad.className = "mw-pad";
    pad.setAttribute("aria-hidden", "true");
    var hit = L.marker(ll(c.xy), {
      pane: "targets",
      keyboard: false,
      zIndexOffset: c.relation === "owner" ? 1000 : 0,
      icon: L.divIcon({
        className: "mw-target",
        iconSize: target,
        iconAnchor: [target[0] / 2 - off[0], target[1] / 2 - off[1]],
        html: pad,
      }),
    }).addTo(this.layers.counters);
    var tapped = function () {
      if (n === 1) {
        self.act(c);
      } else if (lit) {
        self.march(self.data.reach, lit);
      } else if (self.mode === "deploy" && one) {
        self.openSheet(c.hex);
      } else {
        var face = self.map.layerPointToLatLng(self.map.latLngToLayerPoint(ll(c.xy)).add(L.point(off[0], off[1])));
        self.openPicker(s, face, h, html);
      }
    };
    marker.on("click", tapped);
    hit.on("click", tapped);
  };

  /* The list of a stack's forces, over the map by the stack (a Leaflet popup): a row each, its
     counter's face and its words; a row a tap can act on (choose the force, march the chosen
     force into its lit hex, open a deployment's sheet) is a button of a thumb's height, the
     others (an enemy's force, a garrison) are words only. Escape, the close button or a tap on
     the map closes it; a new layer or zoom draws the stacks again and closes it. */
  Widget.prototype.openPicker = function (s, at, h, face) {
    var self = this;
    var one = s.hexes.length === 1;
    var colours = this.data.colours || {};
    var box = document.createElement("div");
    box.className = "mw-pick";
    box.setAttribute("role", "dialog");
    var head = document.createElement("p");
    head.className = "mw-pick-head";
    head.id = "mw-pick-head";
    head.textContent = s.members.length + " counters in " + (one ? s.hexes[0] : "hexes " + s.hexes.join(", "));
    box.setAttribute("aria-labelledby", head.id);
    box.appendChild(head);
    var ul = document.createElement("ul");
    s.members.forEach(function (m) {
      var li = document.createElement("li");
      var lit = m.unit && m.unit === self.unit ? null : self.litHex(m.hex);
      var acts = self.mode === "deploy" || !!lit || self.canChoose(m);
      var row = document.createElement(acts ? "button" : "span");
      row.className = "mw-pick-item";
      var swatch = document.createElement("span");
      swatch.className = "mw-swatch mw-" + m.relation + " mw-" + m.kind;
      swatch.setAttribute("aria-hidden", "true");
      var colour = colours[m.army] || ["#888888", "#ffffff"];
      swatch.style.background = colour[0];
      swatch.style.color = colour[1];
      swatch.textContent = m.short;
      var words = document.createElement("span");
      words.textContent = counterText(m, !one) + (m.pts ? " \u00b7 " + m.pts : "") +
        (lit ? ": march " + self.data.reach.name + " here (" + lit.cost + " MP)"
          : m.unit && m.unit === self.unit && acts ? " (chosen: tap to let go)" : "");
      row.appendChild(swatch);
      row.appendChild(words);
      if (acts) {
        row.type = "button";
        row.dataset.unit = m.unit || "";
        row.dataset.hex = m.hex;
        row.addEventListener("click", function () {
          self.closePicker();
          self.act(m);
        });
      }
      li.appendChild(row);
      ul.appendChild(li);
    });
    box.appendChild(ul);
    box.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") {
        self.closePicker();
        face.focus();
      }
    });
    this.closePicker();
    face.setAttribute("aria-expanded", "true");
    this.pickerFace = face;
    this.picker = L.popup({
      className: "mw-picker",
      maxWidth: 300,
      minWidth: 200,
      autoPan: false,
      offset: [0, 4 - h / 2],
    })
      .setLatLng(at)
      .setContent(box)
      .openOn(this.map);
    // the list wholly in the map's box, at once: Leaflet's own autoPan glides, and a tap on a
    // row while it glides lands beside it
    var c = this.map.getContainer().getBoundingClientRect();
    var p = this.picker.getElement().getBoundingClientRect();
    var dx = p.left < c.left + 8 ? p.left - c.left - 8 : p.right > c.right - 8 ? p.right - c.right + 8 : 0;
    var dy = p.top < c.top + 8 ? p.top - c.top - 8 : p.bottom > c.bottom - 8 ? p.bottom - c.bottom + 8 : 0;
    if (dx || dy) {
      this.map.panBy([dx, dy], { animate: false });
    }
    var first = box.querySelector("button") || this.picker.getElement().querySelector(".leaflet-popup-close-button");
    if (first) {
      first.focus({ preventScroll: true });
    }
    this.picker.on("remove", function () {
      face.setAttribute("aria-expanded", "false");
    });
  };

  Widget.prototype.closePicker = function () {
    if (this.picker) {
      this.map.closePopup(this.picker);
      this.picker = null;
    }
  };

  /* The names the tiles print that a counter covers, drawn again beside it (below zoom 2). */
  Widget.prototype.namePlates = function (names) {
    var zoom = Math.round(this.map.getZoom());
    if (zoom < 0 || zoom > 1) {
      return; // no names in the tiles below zoom 0; from zoom 2 clearOfName is enough
    }
    var self = this;
    var hexPx = this.grid.hex * Math.pow(2, zoom);
    // what is drawn over the tiles, in the map box's pixels: counters, the marches' costs,
    // the reports
    var origin = this.map.getContainer().getBoundingClientRect();
    var drawn = Array.prototype.map.call(
      this.el.querySelectorAll(".mw-counter, .mw-cost, .mw-report span"),
      function (e) {
        var r = e.getBoundingClientRect();
        return [r.left - origin.left, r.top - origin.top, r.right - origin.left, r.bottom - origin.top];
      }
    );
    var taken = drawn.slice();
    names.forEach(function (n) {
      var at = self.map.latLngToContainerPoint(ll(n.xy));
      var place = namePlace(n, at, hexPx);
      if (!drawn.some(function (b) { return overlaps(b, place.box); })) {
        return; // printed in the clear
      }
      var pw = place.w + 6, ph = place.px + 4;
      var x = at.x - pw / 2, below = at.y + 0.6 * hexPx, above = at.y - 0.6 * hexPx - ph;
      // under the city, over it, then further out and aside (rings of a plate's height); where
      // everything near is taken, the place that covers the fewest counters and plates
      var tries = [];
      for (var ring = 0; ring < 5; ring++) {
        [below + ring * ph, above - ring * ph].forEach(function (y) {
          [x, place.box[0] - 3, x - pw / 2, x + pw / 2, x - pw, x + pw].forEach(function (left) {
            tries.push([left, y]);
          });
        });
      }
      var spot = tries[0], fewest = Infinity;
      for (var i = 0; i < tries.length && fewest > 0; i++) {
        var box = [tries[i][0], tries[i][1], tries[i][0] + pw, tries[i][1] + ph];
        var hits = taken.filter(function (b) { return overlaps(b, box); }).length;
        if (hits < fewest) {
          spot = tries[i];
          fewest = hits;
        }
      }
      taken.push([spot[0], spot[1], spot[0] + pw, spot[1] + ph]);
      var el = document.createElement("span");
      el.className = "mw-name" + (n.star ? " mw-star" : "");
      el.textContent = n.name;
      el.style.fontSize = place.px + "px";
      L.marker(self.map.containerPointToLatLng(L.point(spot[0], spot[1])), {
        interactive: false,
        keyboard: false,
        zIndexOffset: 2000,
        icon: L.divIcon({ className: "mw-plate", iconSize: [pw, ph], iconAnchor: [0, 0], html: el }),
      }).addTo(self.layers.counters);
    });
  };

  /* Deploy mode: where the seat's armies may deploy, lightly tinted; what is placed already. */
  Widget.prototype.drawDeploy = function (dep) {
    var self = this;
    var seen = {};
    Object.keys(dep.allowed).forEach(function (army) {
      dep.allowed[army].forEach(function (id) {
        if (seen[id]) return;
        seen[id] = true;
        L.polygon(hexCorners(self.grid, hexCentre(self.grid, id)), {
          stroke: false,
          fillColor: "#2e7d32",
          fillOpacity: 0.16,
          interactive: false,
          className: "mw-allowed",
        }).addTo(self.layers.reach);
      });
    });
    this.drawCounters(dep.placed);
    if (this.openHex) {
      this.openSheet(this.openHex);
    }
  };

  /* The bottom sheet of deploy mode: what may be placed in the tapped hex, one small form each,
     posted to the deployment page's own endpoint (the forms below stay the same alternative). */
  Widget.prototype.openSheet = function (id) {
    var dep = this.data && this.data.deploy;
    if (!dep || !this.sheet) {
      return;
    }
    this.openHex = id;
    var city = dep.fortresses[id];
    var html = '<div class="mw-sheet-head"><h2>Hex ' + esc(id) + (city ? " · " + esc(city) + " (fortress)" : "") +
      '</h2><button type="button" class="mw-close" aria-label="Close">×</button></div>';
    var any = false;
    var locked = this.data.locked;
    dep.armies.forEach(function (a) {
      if ((dep.allowed[a.army] || []).indexOf(id) < 0) {
        return;
      }
      any = true;
      html += "<h3>" + esc(a.label) + ": " + a.placed + " of " + a.points + " points placed</h3>";
      var here = (a.hex_problems || {})[id] || [];
      if (here.length) {
        html += '<ul class="violations">' + here.map(function (p) { return "<li>" + esc(p) + "</li>"; }).join("") + "</ul>";
      }
      // A fortress opens on its garrison; then what stands here; the rest folded away.
      if (city) {
        html += '<form class="mw-place" data-army="' + esc(a.army) + '" data-action="garrison" data-city="' + esc(city) + '">' +
          "<strong>Garrison of " + esc(city) + "</strong>" +
          ' <label>points <input name="points" type="number" min="0" inputmode="numeric" value="' + (a.garrisons[city] || 0) + '"></label>' +
          ' <button type="submit"' + (locked ? " disabled" : "") + ">Garrison " + esc(city) + "</button></form>";
      }
      var leaderForm = function (x) {
        var at = x.hex === id;
        return '<form class="mw-place" data-army="' + esc(a.army) + '" data-action="leader" data-unit="' + esc(x.key) + '">' +
          "<strong>" + esc(x.name) + "</strong>" + (at ? " (here)" : x.hex ? " (in " + esc(x.hex) + ")" : "") +
          ' <label>points <input name="points" type="number" min="0" inputmode="numeric" value="' + (x.points || 0) + '"></label>' +
          (city ? ' <label><input type="checkbox" name="inside"' + (x.inside ? " checked" : "") + "> inside</label>" : "") +
          ' <button type="submit"' + (locked ? " disabled" : "") + ">Place " + esc(x.name) + " here</button></form>";
      };
      var trainForm = function (t) {
        return '<form class="mw-place" data-army="' + esc(a.army) + '" data-action="train" data-unit="' + esc(t.id) + '">' +
          "<strong>" + esc(t.name || t.id) + "</strong>" + (t.hex === id ? " (here)" : t.hex ? " (in " + esc(t.hex) + ")" : "") +
          (city ? ' <label><input type="checkbox" name="inside"' + (t.inside ? " checked" : "") + "> inside</label>" : "") +
          ' <button type="submit"' + (locked ? " disabled" : "") + ">Place " + esc(t.name || t.id) + " here</button></form>";
      };
      var atHere = function (u) { return u.hex === id; };
      var elsewhere = function (u) { return u.hex !== id; };
      html += a.leaders.filter(atHere).map(leaderForm).join("") + a.trains.filter(atHere).map(trainForm).join("");
      // not placed yet first, then those placed elsewhere
      var rank = function (u) { return u.hex ? 1 : 0; };
      var rest = a.leaders.filter(elsewhere).sort(function (p, q) { return rank(p) - rank(q); }).map(leaderForm).join("") +
        a.trains.filter(elsewhere).sort(function (p, q) { return rank(p) - rank(q); }).map(trainForm).join("");
      if (rest) {
        // open at once in a hex without a fortress: there is nothing else to place there
        html += "<details" + (city ? "" : " open") + "><summary>Place a leader or a siege train here</summary>" + rest + "</details>";
      }
    });
    if (!any) {
      html += "<p>None of your armies may deploy in this hex (3.2): tap a tinted hex.</p>";
    }
    this.sheet.hidden = false;
    if (this.sheetHtml === html) {
      return; // the same choices: keep what the player is typing
    }
    this.sheetHtml = html;
    this.sheet.innerHTML = html;
    var self = this;
    this.sheet.querySelector(".mw-close").addEventListener("click", function () {
      self.closeSheet();
    });
    Array.prototype.forEach.call(this.sheet.querySelectorAll("form.mw-place"), function (f) {
      f.addEventListener("submit", function (ev) {
        ev.preventDefault();
        self.place(f, id);
      });
    });
  };

  Widget.prototype.closeSheet = function () {
    this.openHex = "";
    if (this.sheet) {
      this.sheet.hidden = true;
      this.sheet.innerHTML = "";
      this.sheetHtml = "";
    }
  };

  Widget.prototype.place = function (form, id) {
    var values = { phase: "deployment", army: form.dataset.army, action: form.dataset.action };
    if (form.dataset.action === "garrison") {
      values.city = form.dataset.city;
    } else {
      values.unit = form.dataset.unit;
      values.hex = id;
    }
    var points = form.querySelector("input[name=points]");
    if (points) values.points = points.value || "0";
    var inside = form.querySelector("input[name=inside]");
    if (inside && inside.checked) values.inside = "on";
    this.say("Saving…");
    var self = this;
    var el = this.el;
    el.dataset.saving = "1";
    var failed = function (ev) {
      if (ev.detail && ev.detail.requestConfig && ev.detail.requestConfig.path === el.dataset.deploy) {
        self.say("Not saved (" + (ev.detail.xhr && ev.detail.xhr.status ? "the server answered " + ev.detail.xhr.status : "no answer") + "): press the button again.");
      }
    };
    document.body.addEventListener("htmx:responseError", failed);
    document.body.addEventListener("htmx:sendError", failed);
    var done = function () {
      el.dataset.saving = "";
      document.body.removeEventListener("htmx:responseError", failed);
      document.body.removeEventListener("htmx:sendError", failed);
    };
    htmx.ajax("POST", el.dataset.deploy, {
      target: "#sheet",
      swap: "outerHTML",
      values: values,
      headers: { "X-CSRFToken": csrf() },
    }).then(done, done);
  };

  /* Pan (and zoom) to a hex, as a finger would; the point of a hex in page pixels. */
  Widget.prototype.show = function (id, zoom) {
    this.map.setView(ll(hexCentre(this.grid, id)), zoom === undefined ? this.map.getZoom() : zoom, { animate: false });
  };

  Widget.prototype.pointOf = function (id) {
    var p = this.map.latLngToContainerPoint(ll(hexCentre(this.grid, id)));
    var r = this.el.getBoundingClientRect();
    return [r.left + p.x, r.top + p.y];
  };

  Widget.prototype.choose = function (unit) {
    this.unit = unit;
    this.say(unit ? "Loading where it can go…" : "Tap one of your counters.");
    this.load();
  };

  Widget.prototype.drawReach = function (r) {
    var self = this;
    // A unit that has an order starts its line anew from where it stands (never added to).
    // (its order and where it stands in words, as the list of orders says them: r.said, r.at)
    var order = r.said || r.saved || "stands";
    var anew = r.saved !== null && r.saved !== undefined
      ? " Its order, " + order + ", is replaced by a new line from here." : "";
    if (r.problem) {
      this.say(
        r.name + ": its order cannot be carried out. " + r.problem + anew +
          (r.hexes.length ? " Tap a lit hex to march there instead." : "")
      );
    } else if (anew && r.hexes.length) {
      // (just saved, or chosen again: the order stands until another hex is tapped)
      this.say(
        r.name + " in " + (r.at || r.from) + ": " + r.allowance + " MP. Its order, " + order +
          ", stands; tap another lit hex to replace it with a new line from here."
      );
    } else {
      this.say(
        r.name + " in " + (r.at || r.from) + ": " + r.allowance + " MP." + anew + " " +
          (r.hexes.length ? "Tap a lit hex to march there." : "It can go nowhere this phase.")
      );
    }
    r.hexes.forEach(function (h) {
      var poly = L.polygon(hexCorners(self.grid, h.xy), {
        color: "#8a6d00",
        weight: 1.5,
        fillColor: "#ffd54f",
        fillOpacity: 0.35,
        className: "mw-reach",
      }).addTo(self.layers.reach);
      var el = poly.getElement();
      if (el) {
        el.setAttribute("data-hex", h.hex);
        el.setAttribute("data-cost", String(h.cost));
      }
      poly.on("click", function () {
        self.march(r, h);
      });
      L.marker(ll(h.xy), {
        interactive: false,
        keyboard: false,
        icon: L.divIcon({ className: "mw-mp", iconSize: [0, 0], html: "<span>" + h.cost + "</span>" }),
      }).addTo(self.layers.reach);
    });
  };

  /* The lit hex ``id`` of the chosen force's reach (orders mode), or null: a counter standing in
     it is a tap on the hex (an enemy's force or fortress is where battles and sieges begin). */
  Widget.prototype.litHex = function (id) {
    var r = this.data && this.data.reach;
    if (this.mode !== "orders" || !this.unit || !r || r.unit !== this.unit || this.data.locked) {
      return null;
    }
    for (var i = 0; i < r.hexes.length; i++) {
      if (r.hexes[i].hex === id) {
        return r.hexes[i];
      }
    }
    return null;
  };

  Widget.prototype.march = function (r, h) {
    var path = h.codes; // from where the unit stands: a new line, never added to the old
    this.say("Saving " + r.name + " to " + h.hex + "…");
    htmx.ajax("POST", this.el.dataset.save, {
      target: "#play",
      swap: "outerHTML",
      values: { unit: r.unit, path: path, marches: String(r.marches || 1), phase: this.el.dataset.phase },
      headers: { "X-CSRFToken": csrf() },
    });
  };


  function mark(name) {
    if (window.performance && performance.mark) {
      performance.mark(name);
    }
  }

  /* Both scripts are async: whichever comes second starts the widget. */
  function start() {
    var el = document.getElementById("mapwidget");
    if (!el || el._widget) {
      return;
    }
    if (window.L) {
      el._widget = new Widget(el);
      // the older tap map of the orders page is for pages without JavaScript (play.css)
      document.documentElement.classList.add("mw-live");
      return;
    }
    var leaflet = document.getElementById("leaflet-js");
    if (leaflet) {
      leaflet.addEventListener("load", start);
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
