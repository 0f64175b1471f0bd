/** Python sources the prover tests share: a Flask app's own view decorators (CTFd's shape), one of which only logs. */
export const DECORATORS = `import functools
from flask import abort, redirect, request, session

def admins_only(f):
    @functools.wraps(f)
    def admins_only_wrapper(*args, **kwargs):
        if is_admin():
            return f(*args, **kwargs)
        else:
            return redirect("/login")
    return admins_only_wrapper

def authed_only(f):
    @functools.wraps(f)
    def authed_only_wrapper(*args, **kwargs):
        if not authed():
            return redirect("/login")
        return f(*args, **kwargs)
    return authed_only_wrapper

def logged(f):
    @functools.wraps(f)
    def logged_wrapper(*args, **kwargs):
        print("called")
        return f(*args, **kwargs)
    return logged_wrapper
`;
