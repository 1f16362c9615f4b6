// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel log's console: which printk lines reach a synchronous serial
 * console and how many characters they put on the wire there.
 *
 * 4.14's vprintk_emit stores the line, then the caller takes the console
 * lock if it can and writes every pending line to the consoles itself
 * (console_unlock, call_console_drivers); a serial driver's console write
 * (serial8250_console_write through uart_console_write) waits for the
 * UART to take each character, so the caller spends the line's time on
 * the wire. 6.12 does the same for a legacy console (legacy_direct in
 * printk_get_console_flush_type), which every 8250 console still is in
 * 6.12; it hands the line to another context only in NMI, under
 * printk_deferred (the scheduler's own printks) or on PREEMPT_RT. None of
 * the library's lines come from such a context, so both profiles price
 * them on the caller.
 *
 * What reaches a console: a line whose level is below console_loglevel
 * (suppress_message_printing), which the command line sets as
 * init/main.c does: 7 by default, "quiet" 4, "debug" 10, "loglevel=N" N,
 * the last of them winning. A line goes out as "[%5lu.%06lu] " (with
 * printk.time, Android's and distributions' CONFIG_PRINTK_TIME=y), its
 * text, and "\r\n" (uart_console_write puts a '\r' before each '\n').
 * The time on the wire is the cost model's (tools/cmasim/engine/cost.c); this
 * file reads the console's rate and framing (cma_mm_console), the log
 * (mmzone.c, console_account) counts each line's characters in the
 * event console_chars.
 *
 * Departure: only the preferred console (the last console=) is written;
 * the kernel writes to every registered console. Departure: the
 * timestamp is counted at its width below 100000 s of uptime (15
 * characters); the library has no clock.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "lib/cmdline.h"
#include "mm/internal.h"

#define CONSOLE_LOGLEVEL_DEFAULT	7
#define CONSOLE_LOGLEVEL_QUIET		4
#define CONSOLE_LOGLEVEL_DEBUG		10

/*
 * A serial port's console name: "tty", letters, a number (ttyS0, ttyAMA0,
 * ttyMSM0, ttymxc1); "tty0".."tty63" are the virtual terminals.
 */
static bool serial_console_name(const char *s, size_t len)
{
	size_t i = 3;

	if (len < 5 || strncmp(s, "tty", 3))
		return false;
	while (i < len && isalpha((unsigned char)s[i]))
		i++;
	if (i == 3 || i == len)
		return false;
	for (; i < len; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

/*
 * console=NAME[,OPTIONS]: OPTIONS as uart_parse_options reads them, baud
 * then parity (n, o, e) then data bits (7, 8) then 'r' for flow control.
 * With none the port keeps its driver's default, 8250's 9600n8.
 */
static int parse_console(struct cma_mm *mm, const char *val, size_t len)
{
	const char *comma = memchr(val, ',', len);
	size_t name_len = comma ? (size_t)(comma - val) : len;
	uint64_t baud = 9600;
	unsigned bits = 8, parity = 0;
	bool overflow = false;
	size_t i = 0, olen;
	const char *o;

	if (!serial_console_name(val, name_len))
		return 0;
	if (comma) {
		o = comma + 1;
		olen = len - name_len - 1;
		i = parse_integer(o, olen, 10, &baud, &overflow);
		if (!i || overflow || !baud || baud > 4000000)
			goto bad;
		if (i < olen && strchr("noe", o[i]))
			parity = o[i++] != 'n';
		if (i < olen && (o[i] == '7' || o[i] == '8'))
			bits = (unsigned)(o[i++] - '0');
		if (i < olen && o[i] == 'r')
			i++;
		if (i != olen)
			goto bad;
	}
	mm->console.baud = (unsigned)baud;
	mm->console.frame_bits = 1 + bits + parity + 1;	/* start, data, parity, stop */
	return 0;
bad:
	cma_mm_pr_err(mm, "console=%.*s: expected NAME,BAUD[PARITY[BITS[r]]], e.g. console=ttyS0,115200n8\n",
		  (int)len, val);
	return -EINVAL;
}

/* Where @key's last occurrence starts on @cmdline, or NULL. */
static const char *option_at(const char *cmdline, const char *key, const char **val, size_t *len)
{
	const char *v;
	size_t l;

	if (!cmdline_find_option(cmdline, key, &v, &l))
		return NULL;
	if (val)
		*val = v;
	if (len)
		*len = l;
	return v;
}

/* An option's place on the command line (0: absent), to tell which came last. */
static uintptr_t pos(const char *at)
{
	return (uintptr_t)at;
}

int console_setup(struct cma_mm *mm)
{
	const char *quiet, *debug, *level, *val;
	uint64_t n;
	bool overflow = false;
	size_t len;

	mm->console.loglevel = CONSOLE_LOGLEVEL_DEFAULT;
	mm->console.time = true;
	/* the early_params run in command-line order: the last one stands */
	quiet = option_at(mm->cmdline, "quiet", NULL, NULL);
	debug = option_at(mm->cmdline, "debug", NULL, NULL);
	level = option_at(mm->cmdline, "loglevel", &val, &len);
	if (level && (!len || parse_integer(val, len, 10, &n, &overflow) != len || overflow || n > 15)) {
		cma_mm_pr_err(mm, "loglevel=%.*s: expected a number from 0 to 15\n", (int)len, val);
		return -EINVAL;
	}
	if (pos(quiet) > pos(debug) && pos(quiet) > pos(level))
		mm->console.loglevel = CONSOLE_LOGLEVEL_QUIET;
	else if (pos(debug) > pos(quiet) && pos(debug) > pos(level))
		mm->console.loglevel = CONSOLE_LOGLEVEL_DEBUG;
	else if (level)
		mm->console.loglevel = (int)n;
	if (option_at(mm->cmdline, "printk.time", &val, &len) && len)
		mm->console.time = !strchr("nN0", val[0]);
	if (option_at(mm->cmdline, "console", &val, &len))
		return parse_console(mm, val, len);
	return 0;
}

int cma_mm_console(struct cma_mm *mm, unsigned *baud, unsigned *frame_bits, int *loglevel)
{
	if (!mm)
		return -EINVAL;
	if (loglevel)
		*loglevel = mm->console.loglevel;
	if (baud)
		*baud = mm->console.baud;
	if (frame_bits)
		*frame_bits = mm->console.frame_bits;
	return mm->console.baud ? 0 : -ENODEV;
}
