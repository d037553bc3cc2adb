# Packaging: `cpack -G DEB` in a build folder makes sightline_<version>_<arch>.deb with sightline,
# sightline-cli, the menu entry and the icon. Included (OPTIONAL) at the end of the top-level
# CMakeLists.txt; the install() rules of the programs live in app/CMakeLists.txt.
include(GNUInstallDirs)

install(FILES ${CMAKE_CURRENT_LIST_DIR}/sightline.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/sightline.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/samples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/sightline/samples
        OPTIONAL)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/presets/ DESTINATION ${CMAKE_INSTALL_DATADIR}/sightline/presets
        OPTIONAL FILES_MATCHING PATTERN "*.json")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/lessons/ DESTINATION ${CMAKE_INSTALL_DATADIR}/sightline/lessons
        OPTIONAL FILES_MATCHING PATTERN "*.json")

set(CPACK_PACKAGE_NAME "sightline")
set(CPACK_PACKAGE_VENDOR "Sightline")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Measured vs simulated timelines of distributed PyTorch training traces")
set(CPACK_PACKAGE_DESCRIPTION
    "Sightline loads the PyTorch profiler (Kineto) traces of every rank of a distributed training\n job, replays them in a discrete-event simulator and shows measured and simulated timelines,\n the critical path and exposed communication. Includes sightline-cli (info, simulate,\n generate) and sample trace sets.")
set(CPACK_PACKAGE_CONTACT "Sightline maintainers <maintainers@sightline.invalid>")
set(CPACK_PACKAGE_INSTALL_DIRECTORY "sightline")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)

set(CPACK_GENERATOR "DEB")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/sightline/sightline")
# Declared runtime dependencies (Debian bookworm names). simdjson, nlohmann_json and Google
# Benchmark are not needed at run time (header-only or statically linked, or tests only).
set(SIGHTLINE_DEB_DEPENDS "libc6 (>= 2.34), libstdc++6 (>= 12), libgcc-s1, zlib1g (>= 1:1.2.11), libsimdjson14")
if(SIGHTLINE_BUILD_GUI)
  string(APPEND SIGHTLINE_DEB_DEPENDS
         ", libqt6core6 (>= 6.4), libqt6gui6 (>= 6.4), libqt6widgets6 (>= 6.4), libqt6charts6 (>= 6.4)"
         ", libqt6svg6 (>= 6.4), libqt6concurrent6 (>= 6.4), libqt6opengl6 (>= 6.4), libqt6openglwidgets6 (>= 6.4), qt6-qpa-plugins")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${SIGHTLINE_DEB_DEPENDS}")
# Declared explicitly (checked against ldd of both programs) so the package is the same on every
# build machine; dpkg-shlibdeps would only repeat these.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)

include(CPack)
