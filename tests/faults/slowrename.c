/*
 * LD_PRELOAD shim for tests/run-faults.sh: makes rename(), renameat()
 * and renameat2() slow, so that a run can be killed while it publishes.
 * With SLOWRENAME_MS set, each call first sleeps that many milliseconds;
 * with SLOWRENAME_MARK set, the first call creates that file (the test
 * waits for it to know that publishing has begun). Without SLOWRENAME_MS
 * the calls go straight through. With SLOWRENAME_FAIL=N, the Nth call
 * fails with EIO instead (a disk that fails halfway through a publish);
 * with SLOWRENAME_FAIL_EXCHANGE=N, the Nth renameat2() with flags does
 * (the first is ultimate's probe whether the file system exchanges
 * folders, the second its publish).
 *
 * Built by the test: cc -shared -fPIC -o slowrename.so slowrename.c
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* 1 when this call is the one SLOWRENAME_FAIL names: it fails. */
static int
fails(void)
{
	static long calls;
	const char *n = getenv("SLOWRENAME_FAIL");

	if (!n || !*n || ++calls != strtol(n, NULL, 10))
		return 0;
	errno = EIO;
	return 1;
}

static void
slow(void)
{
	static int marked;
	const char *ms = getenv("SLOWRENAME_MS");
	const char *mark = getenv("SLOWRENAME_MARK");
	struct timespec ts;
	int saved = errno;
	long n;

	if (!ms || !*ms)
		return;
	if (mark && *mark && !marked) {
		int fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

		if (fd >= 0)
			close(fd);
		marked = 1;
	}
	n = strtol(ms, NULL, 10);
	ts.tv_sec = n / 1000;
	ts.tv_nsec = (n % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	errno = saved;
}

int
rename(const char *from, const char *to)
{
	static int (*real)(const char *, const char *);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "rename");
	if (fails())
		return -1;
	slow();
	return real(from, to);
}

int
renameat(int fromfd, const char *from, int tofd, const char *to)
{
	static int (*real)(int, const char *, int, const char *);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "renameat");
	if (fails())
		return -1;
	slow();
	return real(fromfd, from, tofd, to);
}

int
renameat2(int fromfd, const char *from, int tofd, const char *to,
	  unsigned int flags)
{
	static int (*real)(int, const char *, int, const char *,
			   unsigned int);

	static long flagged;
	const char *n = getenv("SLOWRENAME_FAIL_EXCHANGE");

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "renameat2");
	if (flags && n && *n && ++flagged == strtol(n, NULL, 10)) {
		errno = EIO;
		return -1;
	}
	if (fails())
		return -1;
	slow();
	return real(fromfd, from, tofd, to, flags);
}
