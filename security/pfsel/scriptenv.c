// SPDX-License-Identifier: GPL-2.0-only
/*
 * pfsel LSM - The environment of a protected script
 *
 * A protected script is the interpreter running the script's code, and
 * nothing else (policy/LANGUAGE.md, "Protected applications").  But the
 * common interpreters read code that their environment chooses before or
 * while they run the script -- bash sources $BASH_ENV, python imports
 * from $PYTHONPATH, perl obeys $PERL5OPT -- and none of them ignores those
 * variables in secure-execution mode, which only the C library and a few
 * programs heed (bash, python, perl and ruby look at their uids, not at
 * AT_SECURE).  Whoever starts the script chooses its environment, and a
 * program of the user would run its own code with the script's rules.
 *
 * So the execve() of a protected script is refused (EPERM) when its
 * environment holds, whatever the value, a variable of the table below:
 * each makes an interpreter it names read code, or modules, from where
 * the variable says, or run code the variable holds.  The interpreter
 * does not matter: "#!/bin/sh" may be bash, and a variable of one
 * interpreter is never needed to run a script of another.  What the table
 * does not cover -- other interpreters, files of the user that an
 * interpreter reads on its own, the script's own use of its environment
 * -- is said in docs/THREAT-MODEL.md, section 2.
 *
 * The strings are read where execve() copied them, in the new program's
 * stack (fs/exec.c, copy_strings()): from bprm->p up, bprm->argc
 * arguments -- the interpreter's, once binfmt_script or binfmt_misc has
 * rewritten them -- then bprm->envc environment strings.  exec's own
 * limit on their size bounds the work; it is done only for a protected
 * script.
 */

#include <linux/binfmts.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "scriptenv.h"

/*
 * Each name at most PFSEL_SCRIPTENV_NAME bytes long (a KUnit case checks).
 * Sources: each interpreter's manual page, section ENVIRONMENT (bash:
 * INVOCATION and Shell Variables), in Debian 12's versions.
 */
const struct pfsel_scriptenv_var pfsel_scriptenv_vars[] = {
	/*
	 * bash(1): a non-interactive shell sources $BASH_ENV; in POSIX mode
	 * $ENV.  A privileged bash (euid != uid) reads neither, ignores
	 * SHELLOPTS, BASHOPTS (xtrace, extdebug: the debugger profile),
	 * CDPATH and GLOBIGNORE and imports no functions (BASH_FUNC_NAME%%,
	 * run in place of the commands the script calls); PS4 is expanded,
	 * command substitutions and all, before each traced command.
	 */
	{ "BASH_ENV", false },
	{ "ENV", false }, /* also dash(1), busybox ash, ksh(1) */
	{ "SHELLOPTS", false },
	{ "BASHOPTS", false },
	{ "CDPATH", false },
	{ "GLOBIGNORE", false },
	{ "PS4", false },
	{ "BASH_FUNC_", true },
	/* zsh(1), STARTUP/SHUTDOWN FILES: $ZDOTDIR/.zshenv, for every zsh. */
	{ "ZDOTDIR", false },
	/*
	 * python3(1) and "Command line and environment" of Python's
	 * documentation: the standard library's place (PYTHONHOME,
	 * PYTHONPLATLIBDIR), the module path (PYTHONPATH), the user site
	 * (PYTHONUSERBASE), bytecode read from elsewhere
	 * (PYTHONPYCACHEPREFIX), a module imported by name (PYTHONBREAKPOINT,
	 * PYTHONWARNINGS' categories), a file run (PYTHONSTARTUP) and an
	 * interactive prompt on standard input after the script
	 * (PYTHONINSPECT).  PYTHONEXECUTABLE is read on macOS only.
	 */
	{ "PYTHONHOME", false },
	{ "PYTHONPATH", false },
	{ "PYTHONPLATLIBDIR", false },
	{ "PYTHONUSERBASE", false },
	{ "PYTHONPYCACHEPREFIX", false },
	{ "PYTHONBREAKPOINT", false },
	{ "PYTHONWARNINGS", false },
	{ "PYTHONSTARTUP", false },
	{ "PYTHONINSPECT", false },
	/*
	 * perlrun(1): switches (-M, -d) and @INC; perldebug(1): the debugger
	 * and its options (RemotePort hands it to a socket).
	 */
	{ "PERL5OPT", false },
	{ "PERL5LIB", false },
	{ "PERLLIB", false },
	{ "PERL5DB", false },
	{ "PERLDB_OPTS", false },
	/*
	 * ruby(1): switches (-r) and $LOAD_PATH; gem(1)'s environment: gems
	 * activated from other folders, a Gemfile evaluated at start.
	 */
	{ "RUBYOPT", false },
	{ "RUBYLIB", false },
	{ "RUBYPATH", false },
	{ "GEM_HOME", false },
	{ "GEM_PATH", false },
	{ "RUBYGEMS_GEMDEPS", false },
	/*
	 * node(1): options (--require, --import) and the module path.  Node
	 * ignores both in secure-execution mode; refused all the same, so
	 * that a script does not depend on the version of node that runs it.
	 */
	{ "NODE_OPTIONS", false },
	{ "NODE_PATH", false },
	/*
	 * lua(1): LUA_INIT (and LUA_INIT_5_4...) is code or @file run before
	 * the script; package.path and package.cpath.
	 */
	{ "LUA_INIT", true },
	{ "LUA_PATH", true },
	{ "LUA_CPATH", true },
	/* tclsh(1), wish(1): init.tcl's folder, the package path. */
	{ "TCL_LIBRARY", false },
	{ "TCLLIBPATH", false },
	{ "TK_LIBRARY", false },
	/*
	 * Not here: LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, GCONV_PATH,
	 * LOCPATH, NLSPATH and the rest of glibc's unsecure-envvars.h, which
	 * the dynamic loader removes in secure-execution mode (musl ignores
	 * LD_PRELOAD and LD_LIBRARY_PATH there).
	 */
};

const size_t pfsel_scriptenv_count = ARRAY_SIZE(pfsel_scriptenv_vars);

/**
 * pfsel_scriptenv_refused - Whether a variable makes an interpreter run code
 *
 * @name: its name, at least min(@len, PFSEL_SCRIPTENV_NAME) bytes of it.
 * @len: the length of the whole name.
 *
 * Return: the entry of the table it falls under, or NULL.
 */
const char *pfsel_scriptenv_refused(const char *const name, const size_t len)
{
	size_t i;

	for (i = 0; i < pfsel_scriptenv_count; i++) {
		const struct pfsel_scriptenv_var *const var =
			&pfsel_scriptenv_vars[i];
		const size_t n = strlen(var->name);

		if ((var->prefix ? len >= n : len == n) &&
		    !memcmp(name, var->name, n))
			return var->name;
	}
	return NULL;
}

/**
 * pfsel_scriptenv_scan - Read on in the strings of an execve()
 *
 * @s: where the walk is; start with the number of argument and
 *     environment strings, the rest zero.
 * @p: the next bytes of the strings.
 * @n: how many.
 *
 * Return: the entry of the table the first variable refused falls under;
 * NULL when none so far (@s->left says whether there is more to read).
 */
const char *pfsel_scriptenv_scan(struct pfsel_env_scan *const s,
				 const char *p, const size_t n)
{
	const char *const end = p + n;
	const char *found;

	while (p < end && s->left) {
		if (s->skip || s->in_value) {
			const char *const nul = memchr(p, '\0', end - p);

			if (!nul)
				break;
			p = nul + 1;
			if (s->skip) {
				s->skip--;
			} else {
				s->left--;
				s->in_value = false;
				s->len = 0;
			}
			continue;
		}
		if (!*p) {
			/* No '=': no variable (getenv() finds none). */
			s->left--;
			s->len = 0;
		} else if (*p == '=') {
			found = pfsel_scriptenv_refused(s->name, s->len);
			if (found)
				return found;
			s->in_value = true;
		} else {
			if (s->len < sizeof(s->name))
				s->name[s->len] = *p;
			s->len++;
		}
		p++;
	}
	return NULL;
}

/**
 * pfsel_scriptenv_check - Refuse a protected script an environment that
 *                         would run other code
 *
 * @bprm: the execve() of a protected script, from bprm_creds_from_file:
 *        its strings are in bprm->mm, not yet the process's.
 * @found: set, when refused, to the variable of the table that the
 *         environment holds (its name, or the start of the names of a
 *         family), or to NULL when the environment cannot be read here.
 *
 * Return: 0; -EPERM when the environment holds a variable of the table,
 * or cannot be read here; -ENOMEM or -EFAULT (the strings are not where
 * bprm says) and the execve() fails all the same.
 */
int pfsel_scriptenv_check(struct linux_binprm *const bprm,
			  const char **const found)
{
	struct pfsel_env_scan scan = { .skip = bprm->argc, .left = bprm->envc };
	unsigned long pos = bprm->p;
	char *buf;
	int err = 0;

	*found = NULL;
	/* Without an MMU the strings are in bprm->page[]: not read here. */
	if (!IS_ENABLED(CONFIG_MMU))
		return -EPERM;
	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	while (scan.left && !*found) {
		const int n = PAGE_SIZE - offset_in_page(pos);

		if (access_remote_vm(bprm->mm, pos, buf, n, FOLL_FORCE) != n) {
			err = -EFAULT;
			break;
		}
		*found = pfsel_scriptenv_scan(&scan, buf, n);
		pos += n;
		cond_resched();
	}
	kfree(buf);
	return *found ? -EPERM : err;
}
