/* hb_thread.h: the library's one mutex type (POSIX threads, or SRW locks on Windows), with a static initialiser for process-wide locks. */
#ifndef HB_THREAD_H
#define HB_THREAD_H

/* The library's threading rules are in hinesbatch.h ("Threads and
 * lifetimes"); reference counts and busy flags use C11 <stdatomic.h> where
 * they live, this header only the locks that atomics cannot replace. */
#if defined(_WIN32)
#include <windows.h>
typedef SRWLOCK hb__mutex;
#define HB_MUTEX_INIT SRWLOCK_INIT
static inline int hb__mutex_init(hb__mutex *m)
{
    InitializeSRWLock(m);
    return 0;
}
static inline void hb__mutex_destroy(hb__mutex *m) { (void)m; }
static inline void hb__mutex_lock(hb__mutex *m) { AcquireSRWLockExclusive(m); }
static inline void hb__mutex_unlock(hb__mutex *m) { ReleaseSRWLockExclusive(m); }
#else
#include <pthread.h>
typedef pthread_mutex_t hb__mutex;
#define HB_MUTEX_INIT PTHREAD_MUTEX_INITIALIZER
/* 0 on success, else an errno value (the caller reports it). */
static inline int hb__mutex_init(hb__mutex *m) { return pthread_mutex_init(m, NULL); }
static inline void hb__mutex_destroy(hb__mutex *m) { (void)pthread_mutex_destroy(m); }
/* Locking a valid, unlocked-by-us default mutex cannot fail. */
static inline void hb__mutex_lock(hb__mutex *m) { (void)pthread_mutex_lock(m); }
static inline void hb__mutex_unlock(hb__mutex *m) { (void)pthread_mutex_unlock(m); }
#endif

#endif /* HB_THREAD_H */
