/* check_version.c: the version is the one of CMake's project(VERSION): hb_version(), the HB_VERSION macros of hinesbatch_version.h, and their string. */
#include <hinesbatch.h>

#include <stdio.h>
#include <string.h>

/* HB_CMAKE_VERSION and its parts come from tests/CMakeLists.txt. */
int main(void)
{
    const int expected = HB_CMAKE_MAJOR * 10000 + HB_CMAKE_MINOR * 100 + HB_CMAKE_PATCH;
    int failures = 0;
    if (hb_version() != expected) {
        fprintf(stderr, "hb_version() = %d, CMake's version %s is %d\n", hb_version(),
                HB_CMAKE_VERSION, expected);
        ++failures;
    }
    if (HB_VERSION_MAJOR != HB_CMAKE_MAJOR || HB_VERSION_MINOR != HB_CMAKE_MINOR ||
        HB_VERSION_PATCH != HB_CMAKE_PATCH || HB_VERSION != expected) {
        fprintf(stderr, "HB_VERSION_MAJOR/MINOR/PATCH = %d.%d.%d (HB_VERSION %d), CMake's %s\n",
                HB_VERSION_MAJOR, HB_VERSION_MINOR, HB_VERSION_PATCH, HB_VERSION,
                HB_CMAKE_VERSION);
        ++failures;
    }
    if (strcmp(HB_VERSION_STRING, HB_CMAKE_VERSION) != 0) {
        fprintf(stderr, "HB_VERSION_STRING \"%s\", CMake's \"%s\"\n", HB_VERSION_STRING,
                HB_CMAKE_VERSION);
        ++failures;
    }
    printf("hinesbatch %s: hb_version() %d\n", HB_VERSION_STRING, hb_version());
    return failures ? 1 : 0;
}
