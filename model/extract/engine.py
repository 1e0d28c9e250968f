"""Engine rules read from the server's engine files (the game flow, not the skill classes): empty for now.

The rest of this package reads what the skill, card and role classes state. The rules the engine itself
enforces are to be read from the engine's own source files and will live here; a later issue fills this
module. Nothing is read from the engine yet, and nothing here is used by ``extract``.
"""
