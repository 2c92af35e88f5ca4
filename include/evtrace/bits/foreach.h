/*
 * foreach.h - preprocessor iteration for <evtrace/event.h>: applies
 * M(P, x) to each of up to 64 arguments.  Internal; spelled out, since
 * C99's preprocessor has no loop.
 */
#ifndef EVTRACE_BITS_FOREACH_H
#define EVTRACE_BITS_FOREACH_H

#define EVT__CAT(a, b) EVT__CAT_(a, b)
#define EVT__CAT_(a, b) a##b
#define EVT__EXPAND(...) __VA_ARGS__

/* The number of arguments, 1 to 64.  (The last 0 is never the answer: it
 * keeps NARGS_'s "..." from being empty, which ISO C before C23 and
 * C++ before C++20 forbid under -Wpedantic.) */
#define EVT__NARGS(...) EVT__NARGS_(__VA_ARGS__, 64, 63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define EVT__NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, _34, _35, _36, _37, _38, _39, _40, _41, _42, _43, _44, _45, _46, _47, _48, _49, _50, _51, _52, _53, _54, _55, _56, _57, _58, _59, _60, _61, _62, _63, _64, n, ...) n

#define EVT__FOREACH(M, P, ...) \
	EVT__CAT(EVT__FE_, EVT__NARGS(__VA_ARGS__))(M, P, __VA_ARGS__)

#define EVT__FE_1(M, P, x) M(P, x)
#define EVT__FE_2(M, P, x, ...) M(P, x) EVT__FE_1(M, P, __VA_ARGS__)
#define EVT__FE_3(M, P, x, ...) M(P, x) EVT__FE_2(M, P, __VA_ARGS__)
#define EVT__FE_4(M, P, x, ...) M(P, x) EVT__FE_3(M, P, __VA_ARGS__)
#define EVT__FE_5(M, P, x, ...) M(P, x) EVT__FE_4(M, P, __VA_ARGS__)
#define EVT__FE_6(M, P, x, ...) M(P, x) EVT__FE_5(M, P, __VA_ARGS__)
#define EVT__FE_7(M, P, x, ...) M(P, x) EVT__FE_6(M, P, __VA_ARGS__)
#define EVT__FE_8(M, P, x, ...) M(P, x) EVT__FE_7(M, P, __VA_ARGS__)
#define EVT__FE_9(M, P, x, ...) M(P, x) EVT__FE_8(M, P, __VA_ARGS__)
#define EVT__FE_10(M, P, x, ...) M(P, x) EVT__FE_9(M, P, __VA_ARGS__)
#define EVT__FE_11(M, P, x, ...) M(P, x) EVT__FE_10(M, P, __VA_ARGS__)
#define EVT__FE_12(M, P, x, ...) M(P, x) EVT__FE_11(M, P, __VA_ARGS__)
#define EVT__FE_13(M, P, x, ...) M(P, x) EVT__FE_12(M, P, __VA_ARGS__)
#define EVT__FE_14(M, P, x, ...) M(P, x) EVT__FE_13(M, P, __VA_ARGS__)
#define EVT__FE_15(M, P, x, ...) M(P, x) EVT__FE_14(M, P, __VA_ARGS__)
#define EVT__FE_16(M, P, x, ...) M(P, x) EVT__FE_15(M, P, __VA_ARGS__)
#define EVT__FE_17(M, P, x, ...) M(P, x) EVT__FE_16(M, P, __VA_ARGS__)
#define EVT__FE_18(M, P, x, ...) M(P, x) EVT__FE_17(M, P, __VA_ARGS__)
#define EVT__FE_19(M, P, x, ...) M(P, x) EVT__FE_18(M, P, __VA_ARGS__)
#define EVT__FE_20(M, P, x, ...) M(P, x) EVT__FE_19(M, P, __VA_ARGS__)
#define EVT__FE_21(M, P, x, ...) M(P, x) EVT__FE_20(M, P, __VA_ARGS__)
#define EVT__FE_22(M, P, x, ...) M(P, x) EVT__FE_21(M, P, __VA_ARGS__)
#define EVT__FE_23(M, P, x, ...) M(P, x) EVT__FE_22(M, P, __VA_ARGS__)
#define EVT__FE_24(M, P, x, ...) M(P, x) EVT__FE_23(M, P, __VA_ARGS__)
#define EVT__FE_25(M, P, x, ...) M(P, x) EVT__FE_24(M, P, __VA_ARGS__)
#define EVT__FE_26(M, P, x, ...) M(P, x) EVT__FE_25(M, P, __VA_ARGS__)
#define EVT__FE_27(M, P, x, ...) M(P, x) EVT__FE_26(M, P, __VA_ARGS__)
#define EVT__FE_28(M, P, x, ...) M(P, x) EVT__FE_27(M, P, __VA_ARGS__)
#define EVT__FE_29(M, P, x, ...) M(P, x) EVT__FE_28(M, P, __VA_ARGS__)
#define EVT__FE_30(M, P, x, ...) M(P, x) EVT__FE_29(M, P, __VA_ARGS__)
#define EVT__FE_31(M, P, x, ...) M(P, x) EVT__FE_30(M, P, __VA_ARGS__)
#define EVT__FE_32(M, P, x, ...) M(P, x) EVT__FE_31(M, P, __VA_ARGS__)
#define EVT__FE_33(M, P, x, ...) M(P, x) EVT__FE_32(M, P, __VA_ARGS__)
#define EVT__FE_34(M, P, x, ...) M(P, x) EVT__FE_33(M, P, __VA_ARGS__)
#define EVT__FE_35(M, P, x, ...) M(P, x) EVT__FE_34(M, P, __VA_ARGS__)
#define EVT__FE_36(M, P, x, ...) M(P, x) EVT__FE_35(M, P, __VA_ARGS__)
#define EVT__FE_37(M, P, x, ...) M(P, x) EVT__FE_36(M, P, __VA_ARGS__)
#define EVT__FE_38(M, P, x, ...) M(P, x) EVT__FE_37(M, P, __VA_ARGS__)
#define EVT__FE_39(M, P, x, ...) M(P, x) EVT__FE_38(M, P, __VA_ARGS__)
#define EVT__FE_40(M, P, x, ...) M(P, x) EVT__FE_39(M, P, __VA_ARGS__)
#define EVT__FE_41(M, P, x, ...) M(P, x) EVT__FE_40(M, P, __VA_ARGS__)
#define EVT__FE_42(M, P, x, ...) M(P, x) EVT__FE_41(M, P, __VA_ARGS__)
#define EVT__FE_43(M, P, x, ...) M(P, x) EVT__FE_42(M, P, __VA_ARGS__)
#define EVT__FE_44(M, P, x, ...) M(P, x) EVT__FE_43(M, P, __VA_ARGS__)
#define EVT__FE_45(M, P, x, ...) M(P, x) EVT__FE_44(M, P, __VA_ARGS__)
#define EVT__FE_46(M, P, x, ...) M(P, x) EVT__FE_45(M, P, __VA_ARGS__)
#define EVT__FE_47(M, P, x, ...) M(P, x) EVT__FE_46(M, P, __VA_ARGS__)
#define EVT__FE_48(M, P, x, ...) M(P, x) EVT__FE_47(M, P, __VA_ARGS__)
#define EVT__FE_49(M, P, x, ...) M(P, x) EVT__FE_48(M, P, __VA_ARGS__)
#define EVT__FE_50(M, P, x, ...) M(P, x) EVT__FE_49(M, P, __VA_ARGS__)
#define EVT__FE_51(M, P, x, ...) M(P, x) EVT__FE_50(M, P, __VA_ARGS__)
#define EVT__FE_52(M, P, x, ...) M(P, x) EVT__FE_51(M, P, __VA_ARGS__)
#define EVT__FE_53(M, P, x, ...) M(P, x) EVT__FE_52(M, P, __VA_ARGS__)
#define EVT__FE_54(M, P, x, ...) M(P, x) EVT__FE_53(M, P, __VA_ARGS__)
#define EVT__FE_55(M, P, x, ...) M(P, x) EVT__FE_54(M, P, __VA_ARGS__)
#define EVT__FE_56(M, P, x, ...) M(P, x) EVT__FE_55(M, P, __VA_ARGS__)
#define EVT__FE_57(M, P, x, ...) M(P, x) EVT__FE_56(M, P, __VA_ARGS__)
#define EVT__FE_58(M, P, x, ...) M(P, x) EVT__FE_57(M, P, __VA_ARGS__)
#define EVT__FE_59(M, P, x, ...) M(P, x) EVT__FE_58(M, P, __VA_ARGS__)
#define EVT__FE_60(M, P, x, ...) M(P, x) EVT__FE_59(M, P, __VA_ARGS__)
#define EVT__FE_61(M, P, x, ...) M(P, x) EVT__FE_60(M, P, __VA_ARGS__)
#define EVT__FE_62(M, P, x, ...) M(P, x) EVT__FE_61(M, P, __VA_ARGS__)
#define EVT__FE_63(M, P, x, ...) M(P, x) EVT__FE_62(M, P, __VA_ARGS__)
#define EVT__FE_64(M, P, x, ...) M(P, x) EVT__FE_63(M, P, __VA_ARGS__)

#endif
