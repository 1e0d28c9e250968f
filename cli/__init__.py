"""skillproof — verify the skill rules of 风声 (The Message) with z3 and a conflict graph."""
__version__ = "0.1.0"
# where the project lives (also [project.urls] in pyproject.toml): the install line of docs/ci.md, and the
# rule pages SARIF's helpUri points at (docs/rules/CODE.md on the main branch)
REPOSITORY = "https://github.com/skillproof/skillproof"
