// Each instruction set's kernels live in their own inline namespace (ACH_ISA_NS, set per
// translation unit by the build), so the linker can never swap an AVX-512 copy of an inline
// function into the scalar path or the other way round.
#pragma once

#ifndef ACH_ISA_NS
#define ACH_ISA_NS isa_generic
#endif
