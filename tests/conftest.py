import os
import sys

HERE = os.path.dirname(__file__)
sys.path.insert(0, HERE)          # tests/randstate.py and helpers
FIXTURES = os.path.join(HERE, "fixtures")
