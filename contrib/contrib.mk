# contrib/ and etc/: configuration, service unit, set-up scripts, bundled fabric.
ibsmdconfdir = $(sysconfdir)/ibsmd
dist_ibsmdconf_DATA = etc/ibsmd.yaml etc/partitions.yaml
systemdunitdir = $(prefix)/lib/systemd/system
systemdunit_DATA = contrib/systemd/ibsmd.service
EXTRA_DIST += contrib/systemd/ibsmd.service.in
CLEANFILES += contrib/systemd/ibsmd.service
contrib/systemd/ibsmd.service: contrib/systemd/ibsmd.service.in Makefile
	$(AM_V_GEN)$(MKDIR_P) contrib/systemd && \
	sed -e 's|@sbindir[@]|$(sbindir)|g' -e 's|@localstatedir[@]|$(localstatedir)|g' \
	    -e 's|@runstatedir[@]|$(runstatedir)|g' $(srcdir)/contrib/systemd/ibsmd.service.in > $@
dist_noinst_SCRIPTS += contrib/setup/deps.sh contrib/setup/build.sh \
	contrib/setup/test.sh contrib/setup/demo.sh contrib/setup/sanitize.sh \
	contrib/setup/check-summary.sh
EXTRA_DIST += contrib/setup/asan.supp
dist_noinst_DATA += contrib/fabrics/fattree-2l-r8.topo contrib/setup/packages
