// SPDX-License-Identifier: MIT
/* sm_main.c - placeholder (being written). */
int main(void)
{
	return 0;
}
