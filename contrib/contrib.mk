# contrib/ and etc/: configuration, service unit, set-up scripts, bundled fabric.
ibsmdconfdir = $(sysconfdir)/ibsmd
dist_ibsmdconf_DATA = etc/ibsmd.yaml
systemdunitdir = $(prefix)/lib/systemd/system
dist_systemdunit_DATA = contrib/systemd/ibsmd.service
dist_noinst_SCRIPTS += contrib/setup/deps.sh contrib/setup/build.sh \
	contrib/setup/test.sh contrib/setup/demo.sh
dist_noinst_DATA += contrib/fabrics/fattree-2l-r8.topo
