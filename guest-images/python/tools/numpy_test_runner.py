import sys, os
import numpy, numpy.core, numpy.linalg, numpy.fft, numpy.random, numpy.lib
T = '/usr/local/lib/python3.11/dist-packages/numpy_tests/numpy'
numpy.__path__.append(T)
for m, sub in ((numpy.core, 'core'), (numpy.linalg, 'linalg'), (numpy.fft, 'fft'),
               (numpy.random, 'random'), (numpy.lib, 'lib')):
    m.__path__.append(T + '/' + sub)
import errno
# WASI: paths outside the preopens fail with ENOTCAPABLE (76), not ENOENT;
# pytest walks up from the test files (rootdir, conftest.py).
def _wrap(f):
    def g(p, *a, **k):
        try:
            return f(p, *a, **k)
        except PermissionError as e:
            if e.errno == 76:
                raise FileNotFoundError(errno.ENOENT, "No such file or directory", p) from None
            raise
    return g
os.stat = _wrap(os.stat); os.lstat = _wrap(os.lstat); os.listdir = _wrap(os.listdir); os.scandir = _wrap(os.scandir)
# ctypes (libffi) and mmap don't exist on wasm32-wasi; numpy's test modules
# import them at the top. Stand-ins that fail on use, installed after numpy
# is imported (numpy takes their absence as it is).
import types
def _missing(modname):
    m = types.ModuleType(modname)
    def __getattr__(name):
        raise AttributeError("%s.%s: no %s on wasm32-wasi" % (modname, name, modname))
    m.__getattr__ = __getattr__
    return m
for _n in ("ctypes", "mmap"):
    try:
        __import__(_n)
    except ImportError:
        sys.modules[_n] = _missing(_n)
import pytest
SEL = os.environ.get("SEL", "").split() or sys.argv[1:]
args = ['-p', 'no:cacheprovider', '-p', 'no:faulthandler', '-p', 'no:logging', '-s', '-q', '--no-header', '-rf',
        '--import-mode=importlib', '-o', 'python_files=test_*.py', '--rootdir', T, '--basetemp', '/workspace/pytest-tmp', '-c', T + '/pytest.ini']
args += [T + '/' + f for f in SEL]
rc = pytest.main(args)
print("pytest rc", rc)
