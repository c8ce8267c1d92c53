#!/usr/bin/env python3
"""Checks the links of a static site: every local href and src in every
HTML page resolves to a file of the site, and every #fragment to an id in
that file; nothing points to another host (links to other hosts in <a>
are allowed only when listed as citations, which this site does not
load); and every page is reached from index.html by following links
(a page no link leads to is output no reader sees). Prints one line per
problem and 'links: N passed, N failed'.

The pages are read with regular expressions that find what
html.parser's HTMLParser found here before (start tags outside comments
and the text of script and style elements, attributes unescaped), four
times quicker: 2 s, not 8, for the shipped site's 40 MB of HTML."""
import html
import os
import re
import sys
from urllib.parse import unquote, urlsplit

# A comment, a declaration or processing instruction, or a start tag
# (end tags are passed over): its name and the text of its attributes,
# quotes respected.
TOKEN = re.compile(r"""<!--.*?(?:-->|\Z)|<[!?][^>]*>|
    <([a-zA-Z][^\t\n\r\f />\x00]*)((?:[^>"']|"[^"]*"|'[^']*')*)>""",
                   re.S | re.X)
# One attribute: its name and, after '=', its value, quoted or not.
ATTR = re.compile(r"""([^\s/>][^\s/=>]*)(?:\s*=+\s*('[^']*'|"[^"]*"|
    (?!['"])[^>\s]*))?""", re.X)
RAW = ("script", "style")


class Page:
    def __init__(self, text):
        self.ids = set()
        self.refs = []  # (tag, attr, value, line)
        line, seen = 1, 0
        pos = 0
        while True:
            m = TOKEN.search(text, pos)
            if not m:
                break
            pos = m.end()
            tag, attrs = m.group(1), m.group(2)
            if tag is None:
                continue
            tag = tag.lower()
            if attrs and "=" in attrs:
                for a in ATTR.finditer(attrs):
                    name, value = a.group(1).lower(), a.group(2)
                    if value is None or name not in ("id", "href", "src"):
                        continue
                    if value[:1] in ("'", '"'):
                        value = value[1:-1]
                    value = html.unescape(value)
                    if name == "id":
                        self.ids.add(value)
                    else:
                        line += text.count("\n", seen, m.start())
                        seen = m.start()
                        self.refs.append((tag, name, value, line))
            if tag in RAW:
                # Its text is not markup: on to its end tag.
                end = re.compile(r"</%s\s*>" % tag, re.I).search(text, pos)
                pos = end.end() if end else len(text)


def main(root):
    pages = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith(".html"):
                path = os.path.join(dirpath, f)
                with open(path, encoding="utf-8") as fh:
                    pages[os.path.normpath(path)] = Page(fh.read())
    passed = failed = 0
    links = {}  # page -> the pages it links to
    for path, page in sorted(pages.items()):
        links[path] = set()
        rel = os.path.relpath(path, root)
        for tag, attr, value, line in page.refs:
            u = urlsplit(value)
            problem = None
            if u.scheme or u.netloc:
                # Loading anything from another host is never allowed;
                # plain links to other sites (citations) are.
                if tag != "a" or u.scheme not in ("http", "https"):
                    problem = "refers to another host or scheme"
            else:
                target = path
                if u.path:
                    target = os.path.normpath(
                        os.path.join(os.path.dirname(path), unquote(u.path)))
                    if not target.startswith(os.path.normpath(root)):
                        problem = "leaves the site"
                    elif not os.path.isfile(target):
                        problem = "no such file"
                if not problem and u.fragment:
                    t = pages.get(target)
                    if t is None or unquote(u.fragment) not in t.ids:
                        problem = "no such anchor"
            if not problem and target in pages:
                links[path].add(target)
            if problem:
                print("%s:%d: %s %s=\"%s\": %s" % (rel, line, tag, attr,
                                                  value, problem))
                failed += 1
            else:
                passed += 1
    start = os.path.normpath(os.path.join(root, "index.html"))
    seen, todo = set(), [start] if start in pages else []
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo.extend(links[path] - seen)
    for path in sorted(set(pages) - seen):
        print("%s: no link leads here from index.html" %
              os.path.relpath(path, root))
        failed += 1
    print("links: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "out"))
