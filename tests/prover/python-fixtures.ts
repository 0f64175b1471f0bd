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

/** A FastAPI dependency that instantiates each permission class with the request (Dispatch's shape): a class whose constructor refuses is the check. */
export const PERMISSIONS_DEPENDENCY = `class PermissionsDependency(object):
    def __init__(self, permissions_classes: list):
        self.permissions_classes = permissions_classes

    def __call__(self, request: Request):
        for permission_class in self.permissions_classes:
            permission_class(request=request)
`;
