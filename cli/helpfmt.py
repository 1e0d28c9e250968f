"""`--help` in the run's language: argparse's own words (usage, section titles, -h and --version) and the
command line's metavars, chosen when the parser is built (``cli.build_parser`` runs inside the run's language).

In English everything is argparse as it is. In Chinese (``ChineseHelpFormatter``) the words argparse writes
itself are Chinese, and lines are measured in terminal columns — a Chinese character takes two — so the help
column stays aligned and lines wrap at the terminal's width whatever the mix of Chinese and ASCII.

``metavar("FILE")`` is the placeholder of a value as the help shows it: the same Chinese word for the same
English one in every command (文件, 路径, 秒数 …), so the help and the usage errors name a value alike.
"""
from __future__ import annotations

import argparse
import re
import unicodedata

from .model.lang import is_en, pick

#: the placeholders of values in the help and the usage line: English -> Chinese (N and G stay letters)
METAVARS = {
    "FILE": "文件", "PATH": "路径", "DIR": "文件夹", "CODES": "代码", "CODE": "代码", "SECONDS": "秒数",
    "FORMAT:FILE": "格式:文件", "QUERY": "问题", "ID": "编号", "TEXT": "文字", "OLD": "旧版", "NEW": "新版",
    "SERVER_REPO": "服务器仓库", "SRC_DIR": "源码文件夹", "CATALOGUE": "目录", "COMMAND": "命令",
    "N": "N", "G": "G",
}


def metavar(en: str) -> str:
    """The placeholder ``en`` (a key of METAVARS) in the run's language."""
    return pick(METAVARS[en], en)


def width(s: str) -> int:
    """Terminal columns of ``s``: a wide (Chinese) character takes two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


#: what may not start a line (a closing mark stays with the text before it)
_NO_START = set("，。、；：？！）」』》”’,.;:?!)]}…")
#: one piece of a line: a wide character, or a run of other characters up to a space or a wide character
_PIECE = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]|[^\s\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+|\s+")


def wrap(text: str, cols: int) -> list[str]:
    """``text`` (whitespace runs made single spaces) in lines of at most ``cols`` columns, broken at a space
    or between two Chinese characters — never inside an ASCII word, never before a closing mark."""
    text = re.sub(r"\s+", " ", text).strip()
    lines: list[str] = []
    line: list[str] = []                 # the pieces of the line being filled, spaces included
    for piece in _PIECE.findall(text):
        if piece.isspace():
            if line:
                line.append(" ")
            continue
        if line and width("".join(line) + piece) > cols:
            k = len(line)                # break before the piece ...
            if piece[0] in _NO_START:    # ... or, before a closing mark, before the piece that precedes it
                k -= 1
                while k > 0 and (line[k] == " " or line[k][0] in _NO_START):
                    k -= 1
            if k > 0:
                lines.append("".join(line[:k]).rstrip())
                line = line[k:]
                while line and line[0] == " ":
                    line.pop(0)
        line.append(piece)
    if line:
        lines.append("".join(line).rstrip())
    return lines


def _usage_parts(usage: str) -> list[str]:
    """The parts of a one-line usage, as argparse wraps them: a bracketed group, an option with its value,
    a positional with its '...'."""
    tokens, depth, cur = [], 0, ""
    for ch in usage:
        if ch == " " and depth == 0:
            if cur:
                tokens.append(cur)
            cur = ""
            continue
        depth += ch in "[({"
        depth -= ch in "])}"
        cur += ch
    if cur:
        tokens.append(cur)
    parts: list[str] = []
    glue = False
    for t in tokens:
        if parts and (t == "..." or glue):
            parts[-1] += " " + t
            glue = False
            continue
        glue = t.startswith("-") and "," not in t      # a required option: its value goes with it
        parts.append(t)
    return parts


class ChineseHelpFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help in Chinese, measured in terminal columns (descriptions and epilogs are written
    already wrapped, as with RawDescriptionHelpFormatter)."""

    def _format_usage(self, usage, actions, groups, prefix):
        if prefix is None:
            prefix = "用法："
        keep, self._width = self._width, 10 ** 6           # the whole usage on one line, then wrapped here
        try:
            line = super()._format_usage(usage, actions, groups, "").strip("\n")
        finally:
            self._width = keep
        prog = self._prog
        cols = self._width - self._current_indent
        if width(prefix + line) <= cols or not line.startswith(prog + " "):
            return f"{prefix}{line}\n\n"
        parts = _usage_parts(line[len(prog):].strip())
        n = 0
        while n < len(parts) and parts[n].startswith(("-", "[-", "(-")):
            n += 1
        opts, pos = parts[:n], parts[n:]
        if width(prefix + prog) <= 0.75 * cols:         # prog, then the options, then the positionals, aligned
            indent = " " * (width(prefix + prog) + 1)
            lines = self._lines([prog] + (opts or pos), indent, width(prefix) - 1)
            lines[0] = prefix + lines[0][len(indent):]
            if opts:
                lines += self._lines(pos, indent, len(indent) - 1)
        else:                                           # a long prog on a line of its own
            indent = " " * width(prefix)
            lines = [prefix + prog] + self._lines(opts, indent, len(indent) - 1) + \
                self._lines(pos, indent, len(indent) - 1)
        return "\n".join(lines) + "\n\n"

    def _lines(self, parts, indent, used):
        """``parts`` in lines after ``indent``, the first line having ``used`` columns taken already."""
        cols = self._width - self._current_indent
        lines, line = [], []
        for part in parts:
            if line and used + 1 + width(part) > cols:
                lines.append(indent + " ".join(line))
                line, used = [], len(indent) - 1
            line.append(part)
            used += width(part) + 1
        if line:
            lines.append(indent + " ".join(line))
        return lines

    def add_argument(self, action):
        if action.help is not argparse.SUPPRESS:
            invocations = [self._format_action_invocation(action)]
            invocations += [self._format_action_invocation(s) for s in self._iter_indented_subactions(action)]
            self._action_max_length = max(self._action_max_length,
                                          max(map(width, invocations)) + self._current_indent)
            self._add_item(self._format_action, [action])

    def _format_action(self, action):
        help_position = min(self._action_max_length + 2, self._max_help_position)
        help_width = max(self._width - help_position, 11)
        action_width = help_position - self._current_indent - 2
        header = self._format_action_invocation(action)
        indent = " " * self._current_indent
        if not action.help:
            parts = [f"{indent}{header}\n"]
        else:
            if width(header) <= action_width:
                parts = [f"{indent}{header}{' ' * (action_width - width(header))}  "]
                first_indent = 0
            else:
                parts = [f"{indent}{header}\n"]
                first_indent = help_position
            lines = wrap(self._expand_help(action), help_width) or [""]
            parts.append(" " * first_indent + lines[0] + "\n")
            parts += [" " * help_position + x + "\n" for x in lines[1:]]
        for sub in self._iter_indented_subactions(action):
            parts.append(self._format_action(sub))
        return self._join_parts(parts)

    def _split_lines(self, text, cols):
        return wrap(text, cols)

    def format_help(self):
        # argparse ends a section's title with ':'; a Chinese title takes the full-width colon
        return re.sub(r"(?m)^([^\s].*[\u4e00-\u9fff]):$", r"\1：", super().format_help())


def formatter_class():
    """The help formatter of a parser built now: argparse's own in English, ChineseHelpFormatter in Chinese."""
    return argparse.RawDescriptionHelpFormatter if is_en() else ChineseHelpFormatter


def localise(parser: argparse.ArgumentParser) -> None:
    """Give a parser made with ``add_help=False`` its section titles and its -h in the run's language."""
    parser._positionals.title = pick("位置参数", "positional arguments")
    parser._optionals.title = pick("选项", "options")
    parser.add_argument("-h", "--help", action="help", default=argparse.SUPPRESS,
                        help=pick("显示本帮助并退出", "show this help message and exit"))
