#pragma once

namespace sl {

// Loading a large trace spends about a third of its time in page faults on freshly allocated
// memory (simdjson's structural index, the args arena, the event columns). glibc backs its large
// mmap'd chunks with transparent huge pages when the tunable glibc.malloc.hugetlb=1 is set, which
// cuts those faults several hundredfold (measured: 325 -> 240 ms CPU for a 93 MB trace). Tunables
// are read only at process start, so a program calls this first thing in main(): it re-executes
// the program once with the tunable added. It does nothing where transparent huge pages are off,
// when the tunable is already set, under valgrind, or when SIGHTLINE_NO_REEXEC is set; if the
// re-execution fails the program simply continues.
void reexecWithHugePageMalloc(char** argv);

} // namespace sl
