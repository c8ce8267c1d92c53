#ifndef INIT_H
#define INIT_H

#include <stddef.h>

/*
 * `ultimate init [--example NAME] DIR`: a new project made from the
 * installed copy, so that the installed tool is of use outside this
 * repository. The share folder (`make install` puts it at
 * $(PREFIX)/share/ultimate) holds the examples: examples/minimal/, a
 * small project of its own (the default), and the Lloyd report
 * ("lloyd": data/ and templates/, which the commands also read when no
 * project is found), and docs/templates.md, which every project gets.
 */

/*
 * The name of the i-th example, the default first; NULL past the last.
 */
const char *init_example(size_t i);

/*
 * The share folder: $ULTIMATE_SHARE when it is set and not empty, else
 * the one built in (DATADIR). *why gets how it was chosen, for messages
 * ("from ULTIMATE_SHARE", "built in"). Borrowed: do not free.
 */
const char *init_share(const char **why);

/*
 * Copies the example called example (one init_example() names, else
 * BUG) and docs/templates.md from share into a new project at dir,
 * which must not exist or be an empty folder. The tree is written into
 * a temporary folder first (beside dir, or inside an empty dir) and
 * moved into place only when whole, with SIGINT, SIGTERM and SIGHUP
 * held off meanwhile: a failure leaves no part of a project. Says on
 * stdout what the project holds and how to build it. Returns 0, or -1
 * after printing one error: dir exists and is not an empty folder, a
 * part of share is missing (the message names the path looked at and
 * how share was chosen, why), a read or write failed.
 */
int init_project(const char *share, const char *why, const char *dir,
		 const char *example);

#endif
