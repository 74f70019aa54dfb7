#ifndef REEL_CNCURSESW_SHIM_H
#define REEL_CNCURSESW_SHIM_H
/* The wide-character curses API (cchar_t, wget_wch, mvwadd_wch): asked for before the header. */
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <ncurses.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <sys/ioctl.h>

/* What Swift cannot call: attribute macros (A_BOLD is built by NCURSES_BITS), COLOR_PAIR,
   getmaxyx, and the FILE pointers newterm takes. */

typedef enum {
    REEL_ATTR_BOLD = 1,
    REEL_ATTR_REVERSE = 2,
    REEL_ATTR_DIM = 4,
    REEL_ATTR_UNDERLINE = 8,
} reel_attr_flag;

/// The curses attributes of `flags` (reel_attr_flag).
static inline attr_t reel_attributes(int flags) {
    attr_t attributes = A_NORMAL;
    if (flags & REEL_ATTR_BOLD) attributes |= A_BOLD;
    if (flags & REEL_ATTR_REVERSE) attributes |= A_REVERSE;
    if (flags & REEL_ATTR_DIM) attributes |= A_DIM;
    if (flags & REEL_ATTR_UNDERLINE) attributes |= A_UNDERLINE;
    return attributes;
}

/// Opens the terminal on the process's stdin and stdout (newterm, not initscr, which exits the
/// process when the terminal type is unknown) in raw mode (ctrl-c is a key), without echo, with
/// keypad keys decoded, reads that never wait and no cursor. Returns 0, or -1 when curses
/// cannot start.
static inline int reel_curses_open(void) {
    if (newterm(NULL, stdout, stdin) == NULL) return -1;
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    return 0;
}

static inline int reel_curses_rows(void) { return getmaxy(stdscr); }
static inline int reel_curses_columns(void) { return getmaxx(stdscr); }

/// One byte of input (0–255; a character's UTF-8 comes a byte at a time, put together by
/// `UTF8Assembler`) or a KEY_ code (above 255: keypad sequences decoded, KEY_RESIZE); ERR when
/// none is waiting. Not wget_wch: in nodelay mode, when the input runs dry inside a character (a
/// paste read as it arrives) it returns ERR and drops the bytes it read, and the rest of the
/// paste then starts with a continuation byte, which it swallows 144 bytes at a time.
static inline int reel_curses_key(void) { return wgetch(stdscr); }

/// Writes one cell: up to CCHARW_MAX scalars (a character and what combines with it) with
/// `flags` (reel_attr_flag) in colour pair `pair` (0: the terminal's own colours).
static inline int reel_curses_cell(int row, int column, const wchar_t *text, int flags, short pair) {
    attr_t attributes = reel_attributes(flags);
    cchar_t cell;
    if (setcchar(&cell, text, attributes, pair, NULL) != OK) return ERR;
    return mvwadd_wch(stdscr, row, column, &cell);
}

/* ---- Hyperlinks (OSC 8) ---------------------------------------------------------------------
 * Written after refresh() over cells curses drew already, through terminfo (sc, cup, rc) and
 * vid_puts, so curses's record of the terminal's attributes and cursor stays true. Everything
 * goes through stdio's stdout (vidattr's own path) and is flushed at the end, after what refresh
 * wrote.
 */
/* From <term.h>, which is not included: its capability macros (lines, columns) would rewrite
   names in this header. */
extern char *tigetstr(const char *);
extern int tputs(const char *, int, int (*)(int));

static inline int reel_put_byte(int c) { return putchar(c); }

static inline const char *reel_curses_string_cap(const char *name) {
    const char *cap = tigetstr(name);
    return (cap == NULL || cap == (char *)-1) ? NULL : cap;
}

/// 1 when the terminal can save the cursor, move it and restore it (sc, cup, rc): links need all three.
static inline int reel_curses_can_link(void) {
    return reel_curses_string_cap("sc") && reel_curses_string_cap("rc") && reel_curses_string_cap("cup");
}

/// Saves the cursor and moves it to `row`, `column`. Returns OK or ERR.
static inline int reel_link_begin(int row, int column) {
    const char *save = reel_curses_string_cap("sc"), *move = reel_curses_string_cap("cup");
    if (save == NULL || move == NULL) return ERR;
    const char *moved = tiparm(move, row, column);
    if (moved == NULL) return ERR;
    tputs(save, 1, reel_put_byte);
    return tputs(moved, 1, reel_put_byte);
}

/// The attributes (reel_attr_flag) and colour pair of the cells written next.
static inline int reel_link_style(int flags, short pair) {
    return vid_puts(reel_attributes(flags), pair, NULL, reel_put_byte);
}

/// Bytes as they are (the OSC 8 sequences, the cells' UTF-8 text).
static inline void reel_link_write(const char *bytes) { fputs(bytes, stdout); }

/// Normal attributes, the cursor restored, and all of it sent.
static inline void reel_link_end(void) {
    vid_puts(A_NORMAL, 0, NULL, reel_put_byte);
    const char *restore = reel_curses_string_cap("rc");
    if (restore != NULL) tputs(restore, 1, reel_put_byte);
    fflush(stdout);
}

/// Has curses rewrite `row` whole on the next refresh (a link gone from it: a terminal keeps a
/// cell's link until the cell is written again, and curses skips cells it thinks unchanged).
static inline int reel_curses_redraw_row(int row) { return wredrawln(stdscr, row, 1); }

/* ---- Pictures --------------------------------------------------------------------------------
 * Written like links, after refresh() over cells curses left blank: the cursor saved and moved
 * (reel_link_begin), the picture's bytes as they are, the cursor restored (reel_link_end).
 */
/// `count` bytes as they are (a picture's: SGR and block characters, or a graphics sequence).
static inline void reel_picture_write(const unsigned char *bytes, size_t count) {
    if (count > 0) fwrite(bytes, 1, count, stdout);
}

/// Bytes outside any cell (a synchronized-update mark, a kitty deletion), sent at once.
static inline void reel_picture_send(const unsigned char *bytes, size_t count) {
    reel_picture_write(bytes, count);
    fflush(stdout);
}

/// Curses never shifts a line's characters with insert/delete-character: a picture's cells
/// beside the text would move with them.
static inline void reel_curses_keep_columns(void) { idcok(stdscr, FALSE); }

/// Bytes typed before curses took the terminal, given back to be read as keys first (ungetch
/// pushes onto the front of the queue, so the last goes first).
static inline void reel_curses_unread(const unsigned char *bytes, size_t count) {
    for (size_t i = count; i > 0; i--) ungetch(bytes[i - 1]);
}

/* ---- Signals --------------------------------------------------------------------------------
 * SIGINT, SIGTERM and SIGHUP from elsewhere end the app as `q` does (the terminal restored): the
 * handler writes the signal's number to the app's wake-up pipe, which is all it does
 * (async-signal-safe). Ctrl-C at the keyboard arrives as a key (raw mode). Only ReelApp calls
 * these: each Swift module that calls a static inline function gets its own copy of the static.
 */
static inline int *reel_signal_pipe(void) {
    static int fd = -1;
    return &fd;
}

static inline void reel_signal_caught(int sig) {
    int fd = *reel_signal_pipe();
    if (fd >= 0) {
        unsigned char byte = (unsigned char)sig;
        ssize_t written = write(fd, &byte, 1);
        (void)written;
    }
}

/// Sends SIGINT, SIGTERM and SIGHUP to `fd` (a pipe's non-blocking write end), or back to their
/// default actions when `fd` is -1. Returns 0, or -1 with errno.
static inline int reel_catch_signals(int fd) {
    *reel_signal_pipe() = fd;
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = fd >= 0 ? reel_signal_caught : SIG_DFL;
    sigemptyset(&action.sa_mask);
    /* SIGQUIT too: it ends the app as the others do, instead of the runtime's backtrace drawn
       over the screen. */
    int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (int i = 0; i < 4; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) return -1;
    }
    if (fd < 0) return 0;
    /* Unblocked on the calling thread (the app's loop), so a process-directed signal has a
       thread to land on: the test runtime (and some shells) start processes with them blocked. */
    sigset_t set;
    sigemptyset(&set);
    for (int i = 0; i < 4; i++) sigaddset(&set, signals[i]);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0 ? 0 : -1;
}

/* SIGWINCH: curses's own handler (which makes wget_wch return KEY_RESIZE) runs first, then the
   loop is woken with the signal's number (it may be blocked in poll on another thread). */
static inline struct sigaction *reel_previous_winch(void) {
    static struct sigaction previous;
    return &previous;
}

static inline void reel_winch_caught(int sig) {
    struct sigaction *previous = reel_previous_winch();
    if (!(previous->sa_flags & SA_SIGINFO) && previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        previous->sa_handler(sig);
    }
    reel_signal_caught(sig);
}

/// Wakes the loop on SIGWINCH too; call after curses started (it installs its handler then).
static inline int reel_catch_winch(void) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = reel_winch_caught;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGWINCH, &action, reel_previous_winch()) != 0) return -1;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGWINCH);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL) == 0 ? 0 : -1;
}

/// The terminal's size as the kernel has it (rows, columns); -1 when it cannot be read.
static inline int reel_terminal_size(int *rows, int *columns) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}
#endif
