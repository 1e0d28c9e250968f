"""Error phrases shared by every reader of the user's files (catalogue, configuration, scenario files), in
Chinese and English (``model.msg.Msg``): what the operating system, the UTF-8 decoder, ``tomllib`` and
``json`` say in English is said again in Chinese — the known messages translated, anything else quoted as
the library wrote it.
"""
from __future__ import annotations

import errno
import re

from .msg import Msg
from .names import excerpt

BOM = Msg("文件以 UTF-8 字节顺序标记（BOM）开头，TOML 不允许：请存为不带 BOM 的 UTF-8",
          "the file starts with a UTF-8 byte-order mark (BOM), which TOML does not allow: save it as UTF-8 "
          "without BOM")

BOM_JSON = Msg("文件以 UTF-8 字节顺序标记（BOM）开头，JSON 读取时不接受：请存为不带 BOM 的 UTF-8",
               "the file starts with a UTF-8 byte-order mark (BOM), which JSON readers do not take: save it as UTF-8 "
               "without BOM")

#: see the limits (the catalogue format's documentation)
SEE_LIMITS = Msg("（见 docs/catalogue-format.md 的“Limits”一节）", " (see docs/catalogue-format.md § Limits)")

_ERRNO_ZH = {
    errno.ENOENT: "没有这个文件或目录", errno.EACCES: "没有权限", errno.EPERM: "不允许这样操作",
    errno.EISDIR: "这是一个目录", errno.ENOTDIR: "路径中有一段不是目录", errno.ELOOP: "符号链接太多层（或成环）",
    errno.ENAMETOOLONG: "文件名太长", errno.EIO: "输入输出错误", errno.EMFILE: "打开的文件太多",
    errno.ENOSPC: "磁盘空间不足", errno.EROFS: "只读文件系统", errno.EBUSY: "设备或资源正忙",
}


def os_reason(e: OSError) -> Msg:
    """Why the operating system refused, in both languages (``e.strerror`` in English)."""
    en = e.strerror or type(e).__name__
    zh = _ERRNO_ZH.get(e.errno)
    return Msg(zh if zh else "“{en}”", "{en}", en=en)


_UTF8_REASONS = {"invalid start byte": "无效的起始字节", "invalid continuation byte": "无效的后续字节",
                 "unexpected end of data": "数据意外结束"}


def not_utf8(e: UnicodeDecodeError, with_reason: bool = True) -> Msg:
    """"not UTF-8 text (invalid start byte at byte 12)" / "不是 UTF-8 文本（第 12 字节：无效的起始字节）"."""
    if not with_reason:
        return Msg("不是 UTF-8 文本（第 {at} 字节）", "not UTF-8 text (byte {at})", at=e.start)
    zh = _UTF8_REASONS.get(e.reason)
    return Msg("不是 UTF-8 文本（第 {at} 字节：" + ("{zh}" if zh else "“{why}”") + "）",
               "not UTF-8 text ({why} at byte {at})", at=e.start, why=e.reason, zh=zh or "")


# tomllib's messages (Python's Lib/tomllib/_parser.py), as regular expressions, in Chinese
_TOML = [
    (r"Invalid statement", "无效的语句"),
    (r"Expected newline or end of document after a statement", "一条语句之后应换行或结束文件"),
    (r"Expected '(.*)'", "这里应是 '{0}'"),
    (r"Found invalid character (.*)", "出现无效字符 {0}"),
    (r"Cannot declare (.*) twice", "{0} 不能声明两次"),
    (r"Cannot overwrite a value", "不能覆盖已有的值"),
    (r"Expected '\]' at the end of a table declaration", "表头应以 ']' 结束"),
    (r"Expected '\]\]' at the end of an array declaration", "表数组的表头应以 ']]' 结束"),
    (r"Cannot mutate immutable namespace (.*)", "不能修改已经写定的表 {0}"),
    (r"Cannot redefine namespace (.*)", "不能重新定义表 {0}"),
    (r"Expected '=' after a key in a key/value pair", "键之后应是 '='"),
    (r"Invalid initial character for a key part", "键的第一个字符无效"),
    (r"Unclosed array", "数组没有闭合"),
    (r"Duplicate inline table key (.*)", "内联表中的键 {0} 重复"),
    (r"Unclosed inline table", "内联表没有闭合"),
    (r"Unescaped '\\\\' in a string", "字符串中有未转义的 '\\'"),
    (r"Invalid hex value", "无效的十六进制值"),
    (r"Escaped character is not a Unicode scalar value", "转义的字符不是 Unicode 标量值"),
    (r"Unterminated string", "字符串没有结束"),
    (r"Illegal character (.*)", "非法字符 {0}"),
    (r"Invalid date or datetime", "无效的日期或时间"),
    (r"Invalid value", "无效的值"),
]
_AT = re.compile(r"^(?P<msg>.*) \(at (?:line (?P<line>\d+), column (?P<col>\d+)|(?P<end>end of document))\)$", re.S)


def _key(g: str) -> str:
    """tomllib names a key as a tuple of its parts ("('skill', 'gives')"): written as the dotted key."""
    if g.startswith("(") and g.endswith(")"):
        import ast
        try:
            parts = ast.literal_eval(g)
        except (ValueError, SyntaxError):
            return g
        if isinstance(parts, tuple) and all(isinstance(p, str) for p in parts):
            return "'" + ".".join(parts) + "'"
    return g


def toml_syntax(message: str) -> Msg:
    """"TOML syntax error: Invalid value (at line 3, column 7)" and its Chinese: the message of a
    ``tomllib.TOMLDecodeError``."""
    m = _AT.match(message)
    core, where_zh = message, ""
    if m:
        core = m.group("msg")
        where_zh = "（文件末尾）" if m.group("end") else f"（第 {m.group('line')} 行第 {m.group('col')} 列）"
    zh = None
    for pat, tr in _TOML:
        mm = re.fullmatch(pat, core, re.S)
        if mm:
            zh = tr.format(*(_key(g) for g in mm.groups()))
            break
    hint_zh, hint_en = "", ""
    if re.fullmatch(r"Illegal character '\\n'", core):     # a line break inside a quoted string
        hint_zh, hint_en = "——多半是字符串没有在本行结束（少了右引号）", " — most likely a string not closed on its line (a missing closing quote)"
    if zh is None:
        return Msg("TOML 语法错误：“{m}”{h}", "TOML syntax error: {m}{he}", m=message, h=hint_zh, he=hint_en)
    return Msg("TOML 语法错误：{zh}{w}{h}", "TOML syntax error: {m}{he}", zh=zh, w=where_zh, m=message, h=hint_zh,
               he=hint_en)


# json's messages (json.decoder), in Chinese
_JSON = [
    (r"Expecting value", "这里应是一个值"),
    (r"Expecting ',' delimiter", "这里应是 ','"),
    (r"Expecting ':' delimiter", "这里应是 ':'"),
    (r"Expecting property name enclosed in double quotes", "这里应是带双引号的键"),
    (r"Unterminated string starting at", "字符串没有结束"),
    (r"Invalid control character at", "字符串中有无效的控制字符"),
    (r"Invalid control character (.*) at", "字符串中有无效的控制字符 {0}"),
    (r"Invalid \\escape", "无效的转义"),
    (r"Invalid \\uXXXX escape", "无效的 \\uXXXX 转义"),
    (r"Extra data", "多余的数据"),
]


def json_reason(message: str) -> Msg:
    """A ``json.JSONDecodeError.msg`` in both languages."""
    for pat, tr in _JSON:
        mm = re.fullmatch(pat, message)
        if mm:
            return Msg(tr.format(*(f"'{g}'" for g in mm.groups())), "{m}", m=message)
    return Msg("“{m}”", "{m}", m=message)


#: type words for values read from a file: what was found
_FOUND = {bool: ("布尔值", "a boolean"), int: ("整数", "an integer"), float: ("小数", "a number"),
          str: ("字符串", "a string"), list: ("列表", "a list"), dict: ("表", "a table")}


def type_name(v) -> Msg:
    """What kind of TOML value ``v`` is: "a boolean" / "布尔值" …"""
    zh, en = _FOUND.get(type(v), (None, None))
    if zh is None:
        return Msg("{t}", "{t}", t=type(v).__name__)
    return Msg(zh, en)


def in_expr(text: str, ex) -> Msg:
    """"in 'EXPR' at column N: why" — an error of the condition language inside a catalogue value."""
    return Msg("在 '{x}' 的第 {col} 列：{m}", "in '{x}' at column {col}: {m}", x=excerpt(text, ex.col), col=ex.col + 1,
               m=ex.text)
