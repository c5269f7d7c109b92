// Counting replacements of the global operator new/delete for a native test program: allocations
// made while g_counting is set go to g_allocs (the tests check that stepping and colliding allocate
// nothing). Include it in exactly one translation unit of a program.
#pragma once

#include <cstdlib>
#include <new>

static long g_allocs = 0;
static bool g_counting = false;
// The replacements are not inlined: inlined, GCC sees std::free on a pointer from operator new (and
// malloc's pointer reach operator delete) and warns of a mismatched new/delete that is not one.
[[gnu::noinline]] void* operator new(std::size_t n) {
  if (g_counting) ++g_allocs;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }
