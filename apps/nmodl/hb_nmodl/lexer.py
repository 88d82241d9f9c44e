"""lexer.py: NMODL text to tokens, with line and column; comments (':' '?' COMMENT...ENDCOMMENT) and TITLE lines dropped."""
import re

from .errors import NmodlError, Unsupported


class Token:
    __slots__ = ("kind", "text", "line", "col", "pos", "end")

    def __init__(self, kind, text, line, col, pos, end):
        # NAME, NUMBER, OP, STRING (printf's format), ONTOLOGY (REPRESENTS's term), EOF
        self.kind = kind
        self.text = text
        self.line = line
        self.col = col
        self.pos = pos  # offsets into the source, so unit text can be read raw
        self.end = end

    def __repr__(self):
        return "Token(%s %r %d:%d)" % (self.kind, self.text, self.line, self.col)


_NUMBER = re.compile(r"(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
# Longest first: two-character operators before their one-character prefixes.
_OPS = ("==", "!=", "<=", ">=", "&&", "||", "{", "}", "(", ")", ",", "=", "<", ">",
        "+", "-", "*", "/", "^", "!", "'", "~", "[", "]", "@", "%", ".")


def _ontology(src, i, line, lstart, toks, file):
    """The term after REPRESENTS as one ONTOLOGY token: its ':' is no comment
    (nocmodl reads `NCIT:C17145` and `[NCIT:C17145]` alike). Returns the
    position, line and line start after it."""
    n = len(src)
    while i < n and src[i] in " \t\r\f\v\n":
        if src[i] == "\n":
            line += 1
            lstart = i + 1
        i += 1
    j = i
    if j < n and src[j] == "[":
        k = src.find("]", j)
        if k < 0 or "\n" in src[j:k]:
            raise NmodlError("unclosed '[' of an ontology term", file, line, j - lstart + 1)
        j = k + 1
    else:
        while j < n and not src[j].isspace() and src[j] not in "{}":
            j += 1
    if j == i:
        raise NmodlError("REPRESENTS without an ontology term", file, line, i - lstart + 1)
    toks.append(Token("ONTOLOGY", src[i:j], line, i - lstart + 1, i, j))
    return j, line, lstart


def tokenize(src, file="<input>"):
    """All tokens of src, ending with an EOF token."""
    toks = []
    i, line, lstart, n = 0, 1, 0, len(src)

    def where(p):
        return line, p - lstart + 1

    while i < n:
        c = src[i]
        if c == "\n":
            line += 1
            i += 1
            lstart = i
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if c in ":?":  # comment to the end of the line
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        m = _NAME.match(src, i)
        if m:
            word = m.group(0)
            ln, col = where(i)
            if word == "COMMENT":
                j = src.find("ENDCOMMENT", m.end())
                if j < 0:
                    raise NmodlError("COMMENT without ENDCOMMENT", file, ln, col)
                line += src.count("\n", i, j)
                k = src.rfind("\n", i, j)
                if k >= 0:
                    lstart = k + 1
                i = j + len("ENDCOMMENT")
                continue
            if word == "TITLE":  # the rest of the line is the title
                j = src.find("\n", i)
                i = n if j < 0 else j
                continue
            if word == "VERBATIM":
                raise Unsupported("VERBATIM (C code in a .mod file)", file, ln, col)
            toks.append(Token("NAME", word, ln, col, i, m.end()))
            i = m.end()
            if word == "REPRESENTS":  # an ontology term, NCIT:C17145 or [NCIT:C17145]
                i, line, lstart = _ontology(src, i, line, lstart, toks, file)
            continue
        m = _NUMBER.match(src, i)
        if m:
            ln, col = where(i)
            if float(m.group(0)) == float("inf"):
                raise NmodlError("number %s does not fit a double" % m.group(0), file, ln, col)
            toks.append(Token("NUMBER", m.group(0), ln, col, i, m.end()))
            i = m.end()
            continue
        if c == '"':  # a string: printf's format, the only place NMODL has one
            ln, col = where(i)
            j = i + 1
            while j < n and src[j] != '"' and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            if j >= n or src[j] != '"':
                raise NmodlError("unclosed string", file, ln, col)
            toks.append(Token("STRING", src[i:j + 1], ln, col, i, j + 1))
            i = j + 1
            continue
        for op in _OPS:
            if src.startswith(op, i):
                ln, col = where(i)
                toks.append(Token("OP", op, ln, col, i, i + len(op)))
                i += len(op)
                break
        else:
            ln, col = where(i)
            raise NmodlError("unexpected character %r" % c, file, ln, col)
    ln, col = where(n)
    toks.append(Token("EOF", "", ln, col, n, n))
    return toks
