"""The tabletop hand-off (rule 9): generated battle tables, their pictures, each side's points and
the optional quick resolution. Pure Python (Pillow for pictures), no Django.
"""
