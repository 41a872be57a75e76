# contrib/package.mk: the packaging the release tarball carries, and the
# packages built from it.  `make dist` puts contrib/debian/ at the tarball's
# root as debian/ (the repository's top level stays as it is) and carries
# contrib/rpm/ibsmd.spec (made by configure), so that in the unpacked tarball
# `dpkg-buildpackage -us -uc -b` builds and `rpmbuild -tb` takes the tarball.
# `make deb` and `make rpm` do both from a fresh `make dist`, into deb/ and
# rpm/ of the build directory (DEB_BUILD_OPTIONS and RPMBUILD_FLAGS pass
# through, e.g. nocheck and --nocheck).
EXTRA_DIST += contrib/rpm/ibsmd.spec.in contrib/rpm/ibsmd.spec
debian_files = changelog control copyright rules source/format \
	ibsmd.install ibsmd.docs ibsmd.postrm smquery.install \
	ibsmd-dev.install ibsmd-dev.examples

# (from a release tarball, as distcheck does, debian/ is where it was put)
dist-hook:
	@d=$(srcdir)/contrib/debian; test -d $$d || d=$(srcdir)/debian; \
	v=$$(sed -n '1s/^ibsmd (\([^)-]*\)-[^)]*).*/\1/p' $$d/changelog); \
	test "$$v" = "$(VERSION)" || { \
		echo "$$d/changelog's newest entry is '$$v', configure.ac says $(VERSION)" >&2; \
		exit 1; }; \
	$(MKDIR_P) $(distdir)/debian/source && \
	for f in $(debian_files); do cp -p $$d/$$f $(distdir)/debian/$$f || exit 1; done

.PHONY: deb rpm clean-packages
deb: dist
	rm -rf deb && $(MKDIR_P) deb && tar -xzf $(distdir).tar.gz -C deb
	cd deb/$(distdir) && dpkg-buildpackage -us -uc -b
# rpm on a system whose packages rpm does not know (Debian): no BuildRequires check
rpm: dist
	rm -rf rpm && $(MKDIR_P) rpm
	@nodeps=; rpm -q --quiet rpm 2>/dev/null || { nodeps=--nodeps; \
		echo "rpm's database does not hold this system's packages: rpmbuild --nodeps"; }; \
	echo rpmbuild -tb $$nodeps $(RPMBUILD_FLAGS) $(distdir).tar.gz; \
	rpmbuild -tb $$nodeps --define '_topdir $(abs_builddir)/rpm' $(RPMBUILD_FLAGS) $(distdir).tar.gz
clean-local: clean-packages
clean-packages:
	rm -rf deb rpm
# distcheck installs under its own prefix: systemd's directories too
AM_DISTCHECK_CONFIGURE_FLAGS = --with-systemdsystemunitdir=$$dc_install_base/lib/systemd/system \
	--with-tmpfilesdir=$$dc_install_base/lib/tmpfiles.d
