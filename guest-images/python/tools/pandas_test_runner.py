# pandas' own tests in the guest (lib-tests.sh substitutes SEL).
import sys, os
import pandas
T = '/usr/local/lib/python3.11/dist-packages/pandas_tests/pandas'
# pandas' tests import pandas.tests.* (helpers, fixtures of other modules).
pandas.__path__.append(T)
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
import pytest
SEL = []
args = ['-p', 'no:cacheprovider', '-p', 'no:faulthandler', '-p', 'no:logging', '-s', '-q', '--no-header', '-rf',
        '-m', 'not slow and not network and not db and not single_cpu',
        '--import-mode=importlib', '--rootdir', T, '--basetemp', '/workspace/pytest-tmp', '-c', T + '/pytest.ini']
args += [T + '/tests/' + f for f in SEL]
rc = pytest.main(args)
print("pytest rc", rc)
