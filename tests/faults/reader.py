#!/usr/bin/env python3
"""A reader of a served folder, for tests/run-faults.sh.

Usage: reader.py OUT SITE_A SITE_B SECONDS STOPFILE

Until STOPFILE exists (or SECONDS pass), looks at OUT again and again as
a web server would: opens the folder, then reads, relative to that one
folder, every file whose content differs between the reference sites
SITE_A and SITE_B. Each look must find the files of one site: all as in
A or all as in B. A file that is gone (the folder was replaced and its
old tree removed while it was read) ends that look without a verdict.
Prints the number of looks and of mixed ones; exits 1 on a mixed look.
"""
import hashlib
import os
import sys
import time


def digest(data):
    return hashlib.sha256(data).hexdigest()


def files(top):
    out = {}
    for d, _, names in os.walk(top):
        for n in names:
            p = os.path.join(d, n)
            rel = os.path.relpath(p, top)
            if rel.startswith("."):
                continue
            with open(p, "rb") as f:
                out[rel] = digest(f.read())
    return out


def read_at(dirfd, rel):
    fd = os.open(rel, os.O_RDONLY, dir_fd=dirfd)
    try:
        chunks = []
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            chunks.append(b)
        return b"".join(chunks)
    finally:
        os.close(fd)


def main():
    out, site_a, site_b, seconds, stop = sys.argv[1:6]
    a, b = files(site_a), files(site_b)
    differ = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    # Only those both sites have: a file of one site alone says nothing.
    differ = [k for k in differ if k in a and k in b]
    looks = mixed = 0
    end = time.monotonic() + float(seconds)
    while not os.path.exists(stop) and time.monotonic() < end:
        try:
            dirfd = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
        except OSError:
            continue
        try:
            seen = set()
            for rel in differ:
                h = digest(read_at(dirfd, rel))
                seen.add("A" if h == a[rel] else "B" if h == b[rel]
                         else "?")
            looks += 1
            if len(seen) > 1 or "?" in seen:
                mixed += 1
                if mixed == 1:
                    print("mixed look: %s" % sorted(seen), file=sys.stderr)
        except OSError:
            pass
        finally:
            os.close(dirfd)
    print("%d looks, %d mixed, %d files compared" %
          (looks, mixed, len(differ)))
    return 1 if mixed else 0


sys.exit(main())
