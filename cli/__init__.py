"""skillproof — verify the skill rules of 风声 (The Message) with z3 and a conflict graph."""
__version__ = "0.1.0"
