"""Battles on the tabletop (issue 7): the record of each battle the campaign hands to the table.

A small Django app of its own (label ``battles``) so its migrations never collide with the
campaign app's. Domain operations are in ``battles.services.records`` and its ``battle_*``
neighbours (briefing, results, dates, mail, news, print).
"""
