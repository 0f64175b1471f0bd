/**
 * A record the project's own Django middleware puts on the request from the logged-in user
 * (`request.profile = Profile.objects.for_user(request.user)`, in a class listed in `settings.MIDDLEWARE`)
 * is the caller's own in every view: a write to it needs no ownership check. A middleware the settings
 * do not register, or one that picks the record from request data, proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

const URLS = `from django.urls import path
from . import views

urlpatterns = [
    path("account/theme/", views.theme),
]
`;

const MODELS = `from django.db import models


class Profile(models.Model):
    theme = models.CharField(max_length=10)
`;

const middleware = (lookup: string) => `from .models import Profile


class ProfileMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.user.is_authenticated:
            request.profile = ${lookup}
        return self.get_response(request)


class TimingMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)
`;

const settings = (registered: string) => `MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "app.middleware.${registered}",
]
`;

const VIEWS = `from django.contrib.auth.decorators import login_required
from django.http import HttpResponse


@login_required
def theme(request):
    profile = request.profile
    profile.theme = request.POST["theme"]
    profile.save()
    return HttpResponse(status=204)
`;

async function labels(lookup: string, registered: string, settingsText = settings(registered)): Promise<string[]> {
  const files = { 'app/urls.py': URLS, 'app/models.py': MODELS, 'app/middleware.py': middleware(lookup), 'app/settings.py': settingsText, 'app/views.py': VIEWS };
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.operationsChecked).toBe(1);
  return result.findings.map((f) => f.label);
}

describe('records a registered middleware puts on the request', () => {
  it('a write to the profile the middleware looked up by request.user is the caller’s own', async () => {
    expect(await labels('Profile.objects.get(user=request.user)', 'ProfileMiddleware')).toEqual([]);
  });

  it('a middleware the settings do not list proves nothing', async () => {
    expect(await labels('Profile.objects.get(user=request.user)', 'TimingMiddleware')).toEqual(['authn_only']);
  });

  it('a record picked by request data proves nothing, even beside request.user', async () => {
    expect(await labels('Profile.objects.get(pk=request.headers["X-Profile"])', 'ProfileMiddleware')).toEqual(['authn_only']);
    expect(await labels('Profile.objects.get(user_id=request.GET.get("as", request.user.id))', 'ProfileMiddleware')).toEqual(['authn_only']);
  });

  it('the settings may add the middleware later (+=, .append) or under the old MIDDLEWARE_CLASSES; an alias loop names none', async () => {
    const lookup = 'Profile.objects.get(user=request.user)';
    expect(await labels(lookup, '', 'MIDDLEWARE = BASE\nBASE = ["django.contrib.auth.middleware.AuthenticationMiddleware"]\nMIDDLEWARE += ["app.middleware.ProfileMiddleware"]\n')).toEqual([]);
    expect(await labels(lookup, '', 'MIDDLEWARE_CLASSES = []\nMIDDLEWARE_CLASSES.append("app.middleware.ProfileMiddleware")\n')).toEqual([]);
    // a hostile settings file whose names refer to each other: read as registering nothing, not a crash
    expect(await labels(lookup, '', 'MIDDLEWARE = BASE\nBASE = MIDDLEWARE\n')).toEqual(['authn_only']);
  });
});
