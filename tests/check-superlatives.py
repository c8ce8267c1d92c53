#!/usr/bin/env python3
"""Every superlative of every edition agrees with the edition's own tables.

Usage: tests/check-superlatives.py SITE [PAGE...]

Reads SITE/editions/*/index.html (or only the PAGEs given), each with
the report's other pages beside it (every NAME.html but methods.html and
quantities.html: the pages of templates/NAME.md), and checks, edition
by edition, each sentence that names a machine as the nearest,
closest, heaviest or fastest, or says which machines ran ahead, against
the table of the same edition that shows the figure the sentence names:

- a number linked to closest.speed.*, closest.memory.*, closest.speed_own.*
  (the nearest to a limit) equals the smallest of its column in the table
  of every machine, and the machine the sentence names is a row holding
  that smallest value;
- "the TOP500 No. 1 ... is nearest" only when its gap is below every
  machine's; "the nearest of the machines in the device data" only when it
  is not;
- "X is the closest to both limits" only when X's row holds both minima,
  and, when the TOP500 No. 1 is nearer the speed limit, only as "of the
  machines in the device data";
- the heaviest machine's gaps are its row's;
- "the largest machines have run ahead of the personal ones" only when the
  like-with-like table says so.

Each rule that applies is counted; an edition where none of the sentence
forms is found fails too, so that rewording the text cannot turn the test
into one that passes on nothing. Exit 1, with one line per disagreement.
"""
import glob
import html
import os
import re
import sys

TAG = re.compile(r"<[^>]+>")


def text(s):
    return re.sub(r"\s+", " ", html.unescape(TAG.sub("", s))).strip()


def number(s):
    s = text(s).replace("\u2212", "-").replace(",", "")
    try:
        return float(s)
    except ValueError:
        return None


def table(page, tid):
    """Rows of the table captioned tab-TID: a list of lists of cell HTML."""
    m = re.search(r'<caption id="tab-%s">' % re.escape(tid), page)
    if not m:
        return None, None
    end = page.index("</table>", m.end())
    body = page[m.end():end]
    head = [text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", body, re.S)]
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)
            for r in re.findall(r"<tr>(.*?)</tr>", body, re.S)]
    return head, [r for r in rows if r]


def links(page, name):
    """Texts of the links to quantity NAME outside tables."""
    prose = re.sub(r"<table.*?</table>", "", page, flags=re.S)
    return [text(t) for t in re.findall(
        r'<a href="quantities\.html#%s">(.*?)</a>' % re.escape(name), prose,
        re.S)]


def tokens(s):
    return set(re.findall(r"[\w.-]+", s.lower()))


def names_match(label, name):
    """A short label ("MacBook Air M5") names a row ("Apple MacBook Air
    13-inch (M5, ...)") when each of its words is one of the row's."""
    return tokens(label) <= tokens(name)


def report_pages(path):
    """The page and the report's other pages beside it, in name order."""
    d = os.path.dirname(path)
    return [path] + sorted(
        p for p in glob.glob(os.path.join(d, "*.html"))
        if os.path.basename(p) not in ("methods.html", "quantities.html")
        and os.path.abspath(p) != os.path.abspath(path))


class Edition:
    def __init__(self, path):
        self.path = path
        self.page = "".join(open(p, encoding="utf-8").read()
                            for p in report_pages(path))
        self.prose = text(re.sub(r"<table.*?</table>", "", self.page,
                                 flags=re.S))
        self.errors = []
        self.checked = 0

    def fail(self, msg):
        self.errors.append("%s: %s" % (self.path, msg))

    def column(self, rows, head, title):
        if title not in head:
            self.fail("the table of every machine has no column '%s'"
                      % title)
            return []
        i = head.index(title)
        return [(text(r[0]), number(r[i])) for r in rows]

    def check(self):
        head, rows = table(self.page, "devices")
        if rows is None:
            self.fail("no table of every machine (tab-devices)")
            return
        cols = {
            "speed": self.column(rows, head, "Below the speed limit (orders)"),
            "own": self.column(rows, head, "Below its own mass\u2019s (orders)"),
            "memory": self.column(rows, head,
                                  "Below the memory limit (orders)"),
            "memory_own": self.column(rows, head,
                                      "Below its own memory limit (orders)"),
        }
        if self.errors:
            return
        mins = {}
        for k, col in cols.items():
            vals = [v for _, v in col if v is not None]
            if vals:
                m = min(vals)
                mins[k] = (m, [n for n, v in col if v == m])
        self.nearest(mins, "closest.speed.gap.ops.orders", "speed",
                     [r"nearest the speed limit in this edition, by its peak "
                      r"rate, is (.+?) \((\d{4})\)",
                      r"the nearest machine of the device data to the speed "
                      r"limit is (.+?), at",
                      r"the nearest of the machines in the device data, "
                      r"(.+?) \((\d{4})\), is"])
        self.nearest(mins, "closest.memory.gap.ram.orders", "memory",
                     [r"working memory the data give, (.+?) is the nearest "
                      r"to the memory limit"])
        self.nearest(mins, "closest.speed_own.gap.ops_own.orders", "own",
                     [r"for its own mass, the nearest of them is (.+?) "
                      r"\((\d{4})\)",
                      r"Against its own speed limit the nearest is (.+?) "
                      r"\((\d{4})\)"])
        self.nearest(mins, "closest.memory_own.gap.ram_own.orders",
                     "memory_own",
                     [r"against its own memory limit the nearest is (.+?) "
                      r"\((\d{4})\)"])
        self.record(mins)
        self.both(mins, cols)
        self.heaviest(rows, head)
        self.ahead()
        if not self.checked:
            self.fail("no superlative found to check: was the text "
                      "reworded? (update tests/check-superlatives.py)")

    def nearest(self, mins, quantity, col, forms):
        shown = links(self.page, quantity)
        if not shown:
            return
        if col not in mins:
            self.fail("%s is shown but the table gives no such figure"
                      % quantity)
            return
        low, holders = mins[col]
        for v in shown:
            self.checked += 1
            if number(v) != low:
                self.fail("%s reads %s, but the smallest in the table is "
                          "%s (%s)" % (quantity, v, low, "; ".join(holders)))
        for form in forms:
            for m in re.finditer(form, self.prose):
                self.checked += 1
                if not any(names_match(m.group(1), h) for h in holders):
                    self.fail("the text names %s as the nearest (%s), but "
                              "the table's nearest is %s" % (
                                  m.group(1), col, "; ".join(holders)))

    def record(self, mins):
        rec = links(self.page, "record.gap.ops.orders")
        if not rec or "speed" not in mins:
            return
        r = number(rec[0])
        if "nearest the speed limit in this edition is the TOP500 No. 1" \
                in self.prose:
            self.checked += 1
            if not r < mins["speed"][0]:
                self.fail("the text calls the TOP500 No. 1 (%s orders) the "
                          "nearest, but the table has %s at %s" % (
                              r, "; ".join(mins["speed"][1]),
                              mins["speed"][0]))
        if "the nearest of the machines in the device data" in self.prose:
            self.checked += 1
            if not r < mins["speed"][0]:
                self.fail("the text sets the No. 1 before the machines of "
                          "the device data, but its %s orders are not below "
                          "their %s" % (r, mins["speed"][0]))

    def both(self, mins, cols):
        m = re.search(r"\. (Of the machines in the device data, )?([^.,]+?), "
                      r"the closest to the speed limit, is", self.prose)
        if m:
            self.checked += 1
            if "speed" in mins and not any(names_match(m.group(2), h)
                                           for h in mins["speed"][1]):
                self.fail("the text calls %s the closest to the speed limit, "
                          "but the table's nearest is %s" % (
                              m.group(2), "; ".join(mins["speed"][1])))
            self.scoped(mins, m.group(1), "calls %s the closest to the "
                        "speed limit" % m.group(2))
        m = re.search(r"\. (Of the machines in the device data, )?([^.]+?) "
                      r"is the closest to both limits", self.prose)
        if not m:
            return
        self.checked += 1
        name = m.group(2)
        self.scoped(mins, m.group(1), "calls %s the closest to both limits"
                    % name)
        for k in ("speed", "memory"):
            if k not in mins or not any(names_match(name, h)
                                        for h in mins[k][1]):
                self.fail("the text calls %s the closest to both limits, "
                          "but the table's nearest by %s is %s" % (
                              name, k, "; ".join(mins.get(k, (0, []))[1])))

    def scoped(self, mins, scope, what):
        """A device named nearer the speed limit than all says it is of the
        device data, unless it is nearer than the TOP500 No. 1 too; and the
        No. 1 said to be "nearer the speed limit still" is."""
        rec = links(self.page, "record.gap.ops.orders")
        if not rec or "speed" not in mins:
            return
        r = number(rec[0])
        if not scope and r < mins["speed"][0]:
            self.fail("the text %s without saying 'of the machines in the "
                      "device data', but the TOP500 No. 1 is nearer the speed "
                      "limit (%s orders against %s)" % (what, r,
                                                        mins["speed"][0]))
        if "which the figure does not show, is nearer the speed limit still" \
                in self.prose:
            self.checked += 1
            if not r < mins["speed"][0]:
                self.fail("the text calls the TOP500 No. 1 (%s orders) "
                          "nearer still than %s" % (r, mins["speed"][0]))

    def heaviest(self, rows, head):
        m = re.search(r"The heaviest(?: of them)?, (.+?) at ", self.prose)
        own = links(self.page, "closest.heaviest.gap.ops_own.orders")
        if not m or not own:
            return
        self.checked += 1
        i = head.index("Below its own mass\u2019s (orders)")
        hit = [r for r in rows if names_match(m.group(1), text(r[0]))]
        if not hit or number(hit[0][i]) != number(own[0]):
            self.fail("the heaviest, %s, is %s orders below its own "
                      "mass's limit in the text but not in the table"
                      % (m.group(1), own[0]))

    def ahead(self):
        if "The largest machines have run ahead of the personal ones" \
                not in self.prose:
            return
        head, rows = table(self.page, "likewithlike")
        if not rows:
            self.fail("the text compares kinds, but there is no like-with-"
                      "like table")
            return
        i = head.index("Change (orders)")
        change = {text(r[0]): number(r[i]) for r in rows}
        self.checked += 1
        sup, lap = change.get("TOP500 No. 1"), change.get("Laptop speed")
        if sup is None or lap is None or not sup > lap:
            self.fail("the text says the largest machines ran ahead, but "
                      "the table gives the TOP500 No. 1 %s orders and the "
                      "laptop %s" % (sup, lap))


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    pages = argv[2:] or sorted(glob.glob(os.path.join(
        argv[1], "editions", "[0-9]*", "index.html")))
    if not pages:
        sys.exit("%s: no edition pages" % argv[1])
    errors, checked = [], 0
    for p in pages:
        e = Edition(p)
        e.check()
        errors += e.errors
        checked += e.checked
    for msg in errors:
        print(msg)
    print("superlatives: %d checked in %d editions, %d disagree"
          % (checked, len(pages), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
