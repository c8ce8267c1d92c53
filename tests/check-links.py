#!/usr/bin/env python3
"""Checks the links of a static site: every local href and src in every
HTML page resolves to a file of the site, and every #fragment to an id in
that file; nothing points to another host (links to other hosts in <a>
are allowed only when listed as citations, which this site does not
load). Prints one line per problem and 'links: N passed, N failed'."""
import os
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.refs = []  # (tag, attr, value, line)

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name == "id" and value is not None:
                self.ids.add(value)
            if name in ("href", "src") and value is not None:
                self.refs.append((tag, name, value, self.getpos()[0]))


def main(root):
    pages = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith(".html"):
                path = os.path.join(dirpath, f)
                p = Page()
                with open(path, encoding="utf-8") as fh:
                    p.feed(fh.read())
                pages[os.path.normpath(path)] = p
    passed = failed = 0
    for path, page in sorted(pages.items()):
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
            if problem:
                print("%s:%d: %s %s=\"%s\": %s" % (rel, line, tag, attr,
                                                  value, problem))
                failed += 1
            else:
                passed += 1
    print("links: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "out"))
