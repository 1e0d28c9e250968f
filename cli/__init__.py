"""skillproof — verify the skill rules of 风声 (The Message) with z3 and a conflict graph."""
__version__ = "0.1.0"

#: the distribution's name on the package index (``pip install fengsheng-skillproof``); the command and the
#: import package are ``skillproof``
DISTRIBUTION = "fengsheng-skillproof"


def project_urls() -> dict:
    """``[project.urls]`` of pyproject.toml — the one place the project's addresses are set — as the installed
    metadata has them: {label: url} ({} when there is none, as now: the project has no public address)."""
    from importlib.metadata import PackageNotFoundError, metadata
    try:
        md = metadata(DISTRIBUTION)
    except PackageNotFoundError:
        return {}
    out = {}
    for entry in md.get_all("Project-URL") or []:
        label, sep, url = entry.partition(",")
        if sep and url.strip():
            out[label.strip()] = url.strip()
    return out


def home_url() -> str | None:
    """The project's home page, or None."""
    urls = project_urls()
    return urls.get("Homepage") or urls.get("Repository") or urls.get("Source")


def docs_url() -> str | None:
    """Where the documentation (docs/) is published, or None: SARIF links a rule's page under it
    (``docs_url()/rules/CODE.md``) and otherwise carries the page inline."""
    return project_urls().get("Documentation")
