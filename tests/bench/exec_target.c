// SPDX-License-Identifier: GPL-2.0
/*
 * exec_target - the program pfsel_bench's exec loops run: it exits at
 * once.  Static, without the C library (tests/bench/run builds it with
 * -static -nostdlib), so that an iteration of those loops is the kernel's
 * fork, execve, exit and wait, and next to nothing of its own: x86-64's
 * exit_group(0), the test VM's architecture.
 */

void _start(void);

void _start(void)
{
	__asm__ volatile("mov $231, %%eax\n\txor %%edi, %%edi\n\tsyscall" ::
				 : "memory");
}
