/**
 * A link e-mailed for one record carries that record's own token (`/integrations/<code>/verify/<token>/`):
 * the view looks the record up by its code and compares the token it recomputes with the one in the link
 * (`if channel.make_token() == token:`). Whoever passes holds the record's secret, so the write to that
 * record is theirs to make. A write to another record, or a comparison with a value the view chose
 * itself, proves nothing.
 */
import { describe, expect, it } from 'vitest';
import { proverLabels as labels } from '../helpers/prover-labels.js';

const app = (views: string): Record<string, string> => ({
  'app/urls.py': 'from django.urls import path\nfrom . import views\n\nurlpatterns = [\n    path("channels/<uuid:code>/verify/<slug:token>/", views.verify),\n]\n',
  'app/models.py': 'from django.db import models\n\n\nclass Channel(models.Model):\n    email_verified = models.BooleanField(default=False)\n',
  'app/views.py': `from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from .models import Channel


def verify(request, code, token):
    channel = get_object_or_404(Channel, code=code)
${views}
    return HttpResponse("bad link")
`,
});

describe('a record whose own token the link carries', () => {
  it('the token recomputed and compared, the record is the caller\'s to write', async () => {
    for (const test of ['    if channel.make_token() == token:\n        channel.email_verified = True\n        channel.save()\n        return HttpResponse("ok")', '    if token != channel.make_token():\n        return HttpResponse("bad link")\n    channel.email_verified = True\n    channel.save()']) {
      expect(await labels(app(test)), test).toEqual([]);
    }
  });

  it('a write to another record after the comparison is still a finding', async () => {
    const views = '    if channel.make_token() == token:\n        other = Channel.objects.get(code=request.GET["other"])\n        other.email_verified = True\n        other.save()\n        return HttpResponse("ok")';
    expect(await labels(app(views))).toEqual(['authn_only:app/views.py:11']);
  });

  it('without the comparison the write is a finding', async () => {
    expect(await labels(app('    channel.email_verified = True\n    channel.save()'))).toEqual(['unguarded_path:app/views.py:9']);
  });
});
