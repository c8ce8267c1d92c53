#ifndef SITEFS_H
#define SITEFS_H

/*
 * The output folder's paths and files (sitefs.c), for site.c alone.
 * Functions that print say so; the others set errno or return 0.
 */
#include <string.h>
#include <sys/stat.h>

#include "buf.h"

#define STAGING_PREFIX ".staging-"
#define JOURNAL_MAGIC "ultimate-publish 1\n"

/*
 * Whether p is a path this program may have written under outdir (no
 * empty, "." or ".." component, no control character, no bookkeeping
 * name at the top).
 */
int sitefs_valid_relpath(const char *p);
/* Whether p is the six letters or digits that mkdtemp() puts in. */
int sitefs_mkdtemp_suffix(const char *p);
/* Whether name is a staging folder name: the prefix and six characters. */
int sitefs_staging_name(const char *name);
/*
 * The names in the folder path but "." and "..", each followed by a
 * '\0', into names, the folder closed again. 0, or -1 with errno set
 * when it cannot be read whole.
 */
int sitefs_list_dir(const char *path, struct buf *names);
/* Each name of a sitefs_list_dir() list, in turn. */
#define SITEFS_EACH_NAME(p, names) \
	for ((p) = (names)->data; (p) < (names)->data + (names)->len; \
	     (p) += strlen(p) + 1)
/* The error for the folder path sitefs_list_dir() could not read: -1. */
int sitefs_unreadable(const char *path);
/* Removes path and what it holds, never following links. Best effort. */
void sitefs_remove_tree(const char *path);
/*
 * Creates the folders of relpath under base, but those listed in made
 * (or NULL). 0, or -1 after printing an error.
 */
int sitefs_make_parents(struct buf *made, const char *base,
			const char *relpath);
/* 1 when every folder from base to base/relpath is one, not a link. */
int sitefs_real_parents(const char *base, const char *relpath);
/* Whether a and b describe one file in one state. */
int sitefs_same_state(const struct stat *a, const struct stat *b);
/* Whether the folder path is the root of a mount (parent: its parent). */
int sitefs_mount_root(const char *path, const char *parent);
/* Exchanges the folders a and b in one step: 0, or -1 with errno set. */
int sitefs_exchange(const char *a, const char *b);
/*
 * Carries out a publish journal's text in outdir, then removes its
 * staging folder. 0, -1 after printing an error (the journal is to
 * stay), or -2 when the journal is damaged (nothing done).
 */
int sitefs_apply_journal(const char *outdir, const char *text);

#endif
