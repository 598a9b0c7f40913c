"""The package version; matches project(accelplan VERSION ...) in CMakeLists.txt."""

__version__ = "0.1.0"
