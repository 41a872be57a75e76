# contrib/ and etc/: configuration, service unit, tmpfiles.d and logrotate
# entries, set-up scripts, bundled fabric.
#
# etc/ibsmd.yaml, the unit and the tmpfiles.d entry are made from their .in
# templates with the directories configure chose: the store and the socket
# they name are the ones ibsmd and smquery were built with (Makefile.am).
ibsmdconfdir = $(sysconfdir)/ibsmd
nodist_ibsmdconf_DATA = etc/ibsmd.yaml
dist_ibsmdconf_DATA = etc/partitions.yaml
logrotatedir = $(sysconfdir)/logrotate.d
dist_logrotate_DATA = contrib/logrotate.d/ibsmd
if HAVE_SYSTEMDSYSTEMUNITDIR
systemdsystemunit_DATA = contrib/systemd/ibsmd.service
endif
if HAVE_TMPFILESDIR
tmpfiles_DATA = contrib/tmpfiles.d/ibsmd.conf
endif
# the bundled fabric, for the sim backend (README: Using it)
fabricsdir = $(pkgdatadir)/fabrics
dist_fabrics_DATA = contrib/fabrics/fattree-2l-r8.topo

ibsmd_templated = etc/ibsmd.yaml contrib/systemd/ibsmd.service contrib/tmpfiles.d/ibsmd.conf
EXTRA_DIST += $(ibsmd_templated:=.in)
CLEANFILES += $(ibsmd_templated)
etc/ibsmd.yaml: $(srcdir)/etc/ibsmd.yaml.in Makefile
contrib/systemd/ibsmd.service: $(srcdir)/contrib/systemd/ibsmd.service.in Makefile
contrib/tmpfiles.d/ibsmd.conf: $(srcdir)/contrib/tmpfiles.d/ibsmd.conf.in Makefile
$(ibsmd_templated):
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	sed -e 's|@sbindir[@]|$(sbindir)|g' -e 's|@ibsmdstatedir[@]|$(ibsmdstatedir)|g' \
	    -e 's|@ibsmdrundir[@]|$(ibsmdrundir)|g' -e 's|@ibsmd_db[@]|$(ibsmd_db)|g' \
	    -e 's|@ibsmd_socket[@]|$(ibsmd_socket)|g' $(srcdir)/$@.in >$@-t && mv $@-t $@

# the store's directory, so that smquery finds the store where ibsmd --once
# left it after a plain `make install` (packages ship it too)
install-data-local:
	$(MKDIR_P) '$(DESTDIR)$(ibsmdstatedir)'

# the page for OpenSM's operators
EXTRA_DIST += contrib/doc/moving-from-opensm.md
dist_noinst_SCRIPTS += contrib/setup/deps.sh contrib/setup/build.sh \
	contrib/setup/test.sh contrib/setup/demo.sh contrib/setup/sanitize.sh \
	contrib/setup/check-summary.sh contrib/setup/package.sh
EXTRA_DIST += contrib/setup/asan.supp
dist_noinst_DATA += contrib/setup/packages
# Prometheus: alert rules, their tests, a scrape example; a Grafana dashboard
dist_noinst_DATA += contrib/prometheus/ibsmd.rules.yml contrib/prometheus/ibsmd.rules.test.yml \
	contrib/prometheus/prometheus.yml contrib/grafana/ibsmd-fabric.json
# Slurm's PrologSlurmctld/EpilogSlurmctld and the SM host's forced-command gate
# (contrib/slurm/README.md says where they go)
dist_noinst_SCRIPTS += contrib/slurm/ibsmd-slurm-hook contrib/slurm/ibsmd-job-gate
EXTRA_DIST += contrib/slurm/README.md
