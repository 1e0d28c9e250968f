"""Parameter enumeration for ``which G declarations …``: every value of a grant's free parameters that one
of its gives sites allows, to be tried one by one."""
from __future__ import annotations

import itertools

from skillproof.model.interp.core import Env, evaluate
from skillproof.model import vocab as V
from skillproof.model.catalogue import Ref
from skillproof.model.state import State

from .syntax import GrantRef

#: at most this many parameter combinations are tried one by one (more: the question must fix some)
MAX_COMBOS = 48


def param_combos(cat, g: GrantRef) -> list[dict]:
    """Every value of the grant's free parameters that one of its gives sites allows (its fixed ``args``
    and its ``where``), the query's own parameters kept. A set of cards is tried one card at a time."""
    out: list[dict] = []
    seen = set()
    fixed_by_query = {p: v for p, v in g.args.items()}
    for gid in g.grants:
        rule = cat.skills[gid]
        sites = [x for x in g.sites if x.grant == gid] or list(cat.sites(gid))
        for site in sites:
            free = [p for p in rule.params if p not in site.args and p not in fixed_by_query]
            ban = rule.ban
            if ban is not None and isinstance(ban.all, Ref) and isinstance(ban.cards, Ref) and \
                    (site.args.get(ban.all.value) is True or fixed_by_query.get(ban.all.value) == ("bool", True)):
                free = [p for p in free if p != ban.cards.value]      # everything is banned: the list is moot
            domains = []
            for p in free:
                ty = rule.params[p]
                if ty == "card":
                    domains.append([("card", c) for c in cat.cards])
                elif ty == "set<card>":
                    domains.append([("set", (c,)) for c in cat.cards])
                elif ty == "bool":
                    domains.append([("bool", False), ("bool", True)])
                elif ty == "colour":
                    domains.append([("colour", c) for c in V.COLOURS])
                else:
                    domains.append([("int", k) for k in range(0, 6)])
            for combo in itertools.product(*domains):
                args = dict(zip(free, combo))
                if site.where is not None:
                    env_params = {}
                    for p, ty in rule.params.items():
                        if p in args:
                            env_params[p] = args[p][1]
                        elif p in fixed_by_query:
                            env_params[p] = fixed_by_query[p][1]
                        elif p in site.args:
                            env_params[p] = site.args[p]
                    env_params = {k: (frozenset(v) if isinstance(v, (list, tuple)) else v) for k, v in env_params.items()}
                    if set(env_params) != set(rule.params):
                        continue
                    env = Env(cat, State(seats=[]), {"self": 0}, env_params, {})
                    try:
                        if not evaluate(site.where, env):
                            continue
                    except (KeyError, IndexError, AttributeError, TypeError):
                        pass                       # a 'where' that reads the giver: leave it to the solver
                key = (gid, tuple(sorted(args.items())))
                if key not in seen and args:
                    seen.add(key)
                    out.append(args)
    return out

