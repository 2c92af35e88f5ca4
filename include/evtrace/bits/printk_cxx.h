/*
 * printk_cxx.h - trace_printk() in C++14 and later, for <evtrace/evtrace.h>:
 * its format checked against its arguments' types when the call compiles
 * (a disagreement is a compile error naming the argument), and the C++
 * values a format may read passed as the C values it reads: std::string
 * and std::string_view (anything with c_str(), or data() and size()) for
 * %s, enums as their underlying integer, std::chrono durations as their
 * count(), nullptr as a null pointer ("(null)" for %s).  Internal.
 */
#ifndef EVTRACE_BITS_PRINTK_CXX_H
#define EVTRACE_BITS_PRINTK_CXX_H

#if defined(__cplusplus) && __cplusplus >= 201402L

/* Which of a format's readings a type passes as (the C codes of
 * EVT__ARGC_CODE, evtrace.h): 'i' an int or narrower, 'u' unsigned int,
 * 'l'/'L' a 64-bit integer, 'd' a double, 's' a string, 'p' a pointer,
 * '?' nothing printf reads. */
template <class T, class = void> struct evt__argc_of {
	static constexpr char value = '?';
};
#define EVT__ARGC_IS(type, code)					\
	template <> struct evt__argc_of<type> {			\
		static constexpr char value = (code);			\
	};
EVT__ARGC_IS(bool, 'i')
EVT__ARGC_IS(char, 'i')
EVT__ARGC_IS(signed char, 'i')
EVT__ARGC_IS(unsigned char, 'i')
EVT__ARGC_IS(short, 'i')
EVT__ARGC_IS(unsigned short, 'i')
EVT__ARGC_IS(int, 'i')
EVT__ARGC_IS(unsigned int, 'u')
EVT__ARGC_IS(long, sizeof(long) == 8 ? 'l' : 'i')
EVT__ARGC_IS(unsigned long, sizeof(long) == 8 ? 'L' : 'u')
EVT__ARGC_IS(long long, 'l')
EVT__ARGC_IS(unsigned long long, 'L')
EVT__ARGC_IS(float, 'd')
EVT__ARGC_IS(double, 'd')
EVT__ARGC_IS(char *, 's')
EVT__ARGC_IS(const char *, 's')
EVT__ARGC_IS(signed char *, 's')
EVT__ARGC_IS(const signed char *, 's')
EVT__ARGC_IS(unsigned char *, 's')
EVT__ARGC_IS(const unsigned char *, 's')
EVT__ARGC_IS(decltype(nullptr), 's')
#undef EVT__ARGC_IS
template <class T> struct evt__argc_of<T *> {
	static constexpr char value = 'p';
};
template <class T, __SIZE_TYPE__ N> struct evt__argc_of<T[N]> {
	static constexpr char value = evt__argc_of<T *>::value;
};
template <class T, __SIZE_TYPE__ N> struct evt__argc_of<const T[N]> {
	static constexpr char value = evt__argc_of<const T *>::value;
};

template <class...> struct evt__void { typedef void type; };
template <bool, class V = void> struct evt__if {};
template <class V> struct evt__if<true, V> { typedef V type; };
template <class T> T &&evt__declval();

/* An enum: its underlying type. */
template <class T> struct evt__argc_of<T, typename evt__if<__is_enum(T)>::type> {
	static constexpr char value = evt__argc_of<__underlying_type(T)>::value;
};
/* A string: data() of chars and size() (a std::string, a string_view). */
template <class T> struct evt__argc_of<T, typename evt__void<
	decltype(evt__chars(evt__declval<const T &>().data())),	/* (event.h's) */
	decltype(evt__declval<const T &>().size())>::type> {
	static constexpr char value = 's';
};
/* A std::chrono duration: count(), of its own unit. */
template <class T> struct evt__argc_of<T, typename evt__void<
	typename T::period, decltype(evt__declval<const T &>().count())>::type> {
	static constexpr char value =
		evt__argc_of<decltype(evt__declval<const T &>().count())>::value;
};

/* Whether a value of code passes where the conversion reads want: 'i'
 * an int (either signedness), 'l' a 64-bit integer, 'd' a double, 's' a
 * string, 'p' a pointer (a string too). */
constexpr bool evt__argc_agrees(char code, char want)
{
	return want == 'i' ? code == 'i' || code == 'u' :
	       want == 'l' ? code == 'l' || code == 'L' :
	       want == 'p' ? code == 'p' || code == 's' : code == want;
}

/*
 * 0 when codes (NUL ended) are what the format f reads; else the number
 * of the first argument that disagrees (1 the first after the format),
 * -1 when too few came, -2 when too many.  Conversions the library
 * refuses (%n, %m, %Lf...) are left to it: it says why at run time.
 */
constexpr int evt__printk_disagree(const char *f, const char *codes)
{
	int k = 0;

	for (int i = 0; f[i]; i++) {
		if (f[i] != '%')
			continue;
		if (f[++i] == '%')
			continue;
		while (f[i] == '-' || f[i] == '+' || f[i] == ' ' || f[i] == '#' ||
		       f[i] == '0' || f[i] == '\'')
			i++;
		for (int star = 0; star < 2; star++) {
			if (star && f[i] != '.')
				break;
			if (star)
				i++;
			if (f[i] == '*') {
				if (!codes[k])
					return -1;
				if (!evt__argc_agrees(codes[k], 'i'))
					return k + 1;
				k++;
				i++;
			}
			while (f[i] >= '0' && f[i] <= '9')
				i++;
		}
		bool wide = false;
		if (f[i] == 'h') {
			if (f[++i] == 'h')
				i++;
		} else if (f[i] == 'l') {
			wide = true;
			if (f[++i] == 'l')
				i++;
		} else if (f[i] == 'j' || f[i] == 'z' || f[i] == 't') {
			wide = true;
			i++;
		} else if (f[i] == 'L') {
			return 0;	/* (refused by the library) */
		}
		char want = 0;
		switch (f[i]) {
		case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
			want = wide ? 'l' : 'i';
			break;
		case 'c':
			want = 'i';
			break;
		case 's':
			want = 's';
			break;
		case 'p':
			want = 'p';
			break;
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
		case 'a': case 'A':
			want = 'd';
			break;
		case '\0':
			return codes[k] ? -2 : 0;
		default:
			return 0;	/* (refused by the library) */
		}
		if (!codes[k])
			return -1;
		if (!evt__argc_agrees(codes[k], want))
			return k + 1;
		k++;
	}
	return codes[k] ? -2 : 0;
}

template <class... A> constexpr int evt__printk_disagree_with(const char *f)
{
	const char codes[] = { evt__argc_of<A>::value..., 0 };

	return evt__printk_disagree(f, codes);
}

/* A compile error shows which argument: trace_printk's argument N
 * (-1: too few of them, -2: too many) disagrees with its format. */
template <int N> struct evt__trace_printk_argument_disagrees_with_its_format {
	static constexpr bool no = N == 0;
};

/* What each argument is passed to the library as. */
template <class T, char = evt__argc_of<T>::value> struct evt__pass {
	const T &v;
	explicit evt__pass(const T &x) : v(x) {}
	const T &get() const { return v; }
};
template <class T> struct evt__pass<T, 's'> {
	const T &v;
	char copy[EVT_STRING_MAX_BYTES];
	explicit evt__pass(const T &x) : v(x) {}
	/* What data() holds, NUL ended: a string_view has no NUL, so what is
	 * stored (EVT_STRING_MAX_BYTES - 1 bytes at most) is copied first. */
	const char *get()
	{
		__SIZE_TYPE__ n = v.size() < sizeof(copy) ? v.size() : sizeof(copy) - 1;

		__builtin_memcpy(copy, v.data(), n);
		copy[n] = '\0';
		return copy;
	}
};
template <class T> struct evt__pass<T *, 's'> {
	T *const &v;
	explicit evt__pass(T *const &x) : v(x) {}
	T *get() const { return v; }
};
template <class T> struct evt__pass<const T *, 's'> {
	const T *const &v;
	explicit evt__pass(const T *const &x) : v(x) {}
	const T *get() const { return v; }
};
template <class T, __SIZE_TYPE__ N> struct evt__pass<T[N], 's'> {
	const T (&v)[N];
	explicit evt__pass(const T (&x)[N]) : v(x) {}
	const T *get() const { return v; }
};
template <> struct evt__pass<decltype(nullptr), 's'> {
	explicit evt__pass(decltype(nullptr)) {}
	const char *get() const { return EVT__NULL; }
};

template <class T> struct evt__pass_enum {
	const T &v;
	explicit evt__pass_enum(const T &x) : v(x) {}
	__underlying_type(T) get() const { return static_cast<__underlying_type(T)>(v); }
};
template <class T> struct evt__pass_count {
	const T &v;
	explicit evt__pass_count(const T &x) : v(x) {}
	decltype(evt__declval<const T &>().count()) get() const { return v.count(); }
};
template <class T, class = void> struct evt__passer { typedef evt__pass<T> type; };
template <class T> struct evt__passer<T, typename evt__if<__is_enum(T)>::type> {
	typedef evt__pass_enum<T> type;
};
template <class T> struct evt__passer<T, typename evt__void<
	typename T::period, decltype(evt__declval<const T &>().count())>::type> {
	typedef evt__pass_count<T> type;
};

/* Compiling it checks Tag's format against the arguments' types A. */
template <class Tag, class... A> struct evt__printk_checked {
	static_assert(evt__trace_printk_argument_disagrees_with_its_format<
			      evt__printk_disagree_with<A...>(Tag::format())>::no,
		      "trace_printk(): an argument disagrees with its format (the "
		      "number in evt__trace_printk_argument_disagrees_with_its_format"
		      "<N> is the argument's; -1: too few, -2: too many)");
	static constexpr bool ok = true;
};

template <class Tag, class... A>
inline void evt__printk_cxx(struct evt_site *site, const char *format, const A &...a)
{
	static_assert(evt__printk_checked<Tag, A...>::ok, "");
	evt__printk(site, format, typename evt__passer<A>::type(a).get()...);
}

/* A span's and an async span's printf-style arguments (span.h). */
template <class Tag, class... A>
inline void evt__span_args_cxx(struct evt_site *site, const char *format, const A &...a)
{
	static_assert(evt__printk_checked<Tag, A...>::ok, "");
	evt__span_args(site, format, typename evt__passer<A>::type(a).get()...);
}
template <class Tag, class... A>
inline void evt__async_args_cxx(struct evt_site *site, uint64_t id, const char *format,
				const A &...a)
{
	static_assert(evt__printk_checked<Tag, A...>::ok, "");
	evt__async_args(site, id, format, typename evt__passer<A>::type(a).get()...);
}

#endif
#endif
