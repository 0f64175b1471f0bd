/**
 * A Python handler that looks a record up by a URL key and answers it is an obligation only where its own
 * module checks records of that model one by one (src/prover/python-record-reads.ts, ADR 0064): the
 * sibling that checks sets the norm, the handler that does not is the one its author forgot. Each
 * negative case sits next to the positive module and asserts the finding stays on the positive alone, so
 * the case fails without the rule as well as with a rule that fires on every lookup.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

/** `file: Class.method` of each record-read finding, sorted. */
async function recordReads(files: Record<string, string>): Promise<string[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  return result.findings.filter((f) => f.operation.id === 'python.url-record-read').map((f) => `${f.entry.path}: ${f.entry.function}`).sort();
}

const AUTHZ = `from django.core.exceptions import PermissionDenied


def user_has_permission(user, obj, permission):
    return user.is_superuser or obj.product.members.filter(id=user.id).exists()


def user_has_permission_or_403(user, obj, permission):
    if not user_has_permission(user, obj, permission):
        raise PermissionDenied
`;

/** A Django module whose `EditX.post` checks the record it looks up and whose `ViewX.get` reads `body`. */
const djangoModule = (model: string, viewBody: string, extraImports = ''): string => `from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import get_object_or_404, render
from django.views import View
from app.authorization import user_has_permission_or_403
from app.models import ${model}
${extraImports}

class Edit${model}(LoginRequiredMixin, View):
    def post(self, request, eid):
        item = get_object_or_404(${model}, id=eid)
        user_has_permission_or_403(request.user, item, "edit")
        item.name = request.POST["name"]
        item.save()
        return render(request, "edit.html", {"item": item})


class View${model}(LoginRequiredMixin, View):
${viewBody}
`;

const UNCHECKED_GET = `    def get(self, request, eid):
        item = get_object_or_404(Engagement, id=eid)
        return render(request, "view.html", {"item": item})
`;

/** The positive module every negative case sits beside. */
const POSITIVE = { 'app/authorization.py': AUTHZ, 'app/engagements.py': djangoModule('Engagement', UNCHECKED_GET) };
const FOUND = ['app/engagements.py: ViewEngagement.get'];

describe('Python reads of a record the URL names, against the module\'s per-object norm', () => {
  it('a handler reading a URL-keyed record its sibling checks is found at the lookup', async () => {
    const result = await proveChange({ root: '/repo', files: Object.entries(POSITIVE).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
    const found = result.findings.filter((f) => f.operation.id === 'python.url-record-read');
    expect(found.map((f) => [f.entry.function, f.operation.line])).toEqual([['ViewEngagement.get', 19]]);
    expect(found[0]?.unboundResource?.sentence).toMatch(/user_has_permission_or_403\(request.user, item, "edit"\)` in EditEngagement.post\b/);
  });

  it('a sibling decorator naming the model and the URL key sets the norm too (Flask-style function views)', async () => {
    const flask = `from flask import Blueprint, render_template
from app.auth import user_is_authorized
from app.models import Job, db

bp = Blueprint("jobs", __name__)


@bp.route("/jobs/<int:job_id>/edit", methods=["POST"])
@user_is_authorized(Job, "edit", "job_id")
def edit_job(job_id):
    job = db.get_or_404(Job, job_id)
    job.touch()
    return render_template("job.html", job=job)


@bp.route("/jobs/<int:job_id>")
def show_job(job_id):
    job = db.get_or_404(Job, job_id)
    return render_template("job.html", job=job)
`;
    expect(await recordReads({ ...POSITIVE, 'app/jobs.py': flask })).toEqual([...FOUND, 'app/jobs.py: show_job'].sort());
  });

  it('no sibling checks the model per object: the module reasons by roles, no norm, no finding', async () => {
    const noNorm = djangoModule('Report', UNCHECKED_GET.replace('Engagement', 'Report')).replace('        user_has_permission_or_403(request.user, item, "edit")\n', '');
    expect(await recordReads({ ...POSITIVE, 'app/reports.py': noNorm })).toEqual(FOUND);
  });

  it('a sibling asking a model-wide permission (the model named, no record given) sets no per-object norm', async () => {
    const modelWide = djangoModule('Report', UNCHECKED_GET.replace('Engagement', 'Report')).replace('user_has_permission_or_403(request.user, item, "edit")', 'policy_for(Report).user_has_permission(request.user, "edit")');
    expect(await recordReads({ ...POSITIVE, 'app/reports.py': modelWide })).toEqual(FOUND);
  });

  it('a handler that checks the record it read is no finding', async () => {
    const checked = djangoModule('Report', UNCHECKED_GET.replace('Engagement', 'Report').replace('        return render', '        user_has_permission_or_403(request.user, item, "view")\n        return render'));
    expect(await recordReads({ ...POSITIVE, 'app/reports.py': checked })).toEqual(FOUND);
  });

  it('a lookup through a queryset filtered by the user is no read past a check', async () => {
    const scoped = djangoModule('Report', `    def get(self, request, eid):
        item = get_object_or_404(Report.objects.filter(product__members=request.user), id=eid)
        return render(request, "view.html", {"item": item})
`);
    expect(await recordReads({ ...POSITIVE, 'app/reports.py': scoped })).toEqual(FOUND);
  });

  it('a view the project declares public (DRF AllowAny) reads what it means everyone to read', async () => {
    const open = djangoModule('Report', `    permission_classes = [AllowAny]

    def get(self, request, eid):
        item = get_object_or_404(Report, id=eid)
        return render(request, "view.html", {"item": item})
`, 'from rest_framework.permissions import AllowAny\n');
    expect(await recordReads({ ...POSITIVE, 'app/reports.py': open })).toEqual(FOUND);
  });

  it('a lookup not keyed by the URL (a fixed record) is no read the request chose', async () => {
    const fixed = djangoModule('Report', `    def get(self, request, eid):
        item = get_object_or_404(Report, slug="front-page")
        return render(request, "view.html", {"item": item})
`);
    expect(await recordReads({ ...POSITIVE, 'app/reports.py': fixed })).toEqual(FOUND);
  });

  it('a check written over several lines names its record on a later line', async () => {
    const multi = djangoModule('Report', UNCHECKED_GET.replace('Engagement', 'Report').replace('        return render', '        user_has_permission_or_403(\n            request.user,\n            item,\n            "view",\n        )\n        return render'));
    expect(await recordReads({ ...POSITIVE, 'app/reports.py': multi })).toEqual(FOUND);
  });

  it('a lookup filtered by a parent record the handler checks is bound through that parent', async () => {
    const parent = djangoModule('Report', `    def get(self, request, eid, rid):
        eng = get_object_or_404(Engagement, id=eid)
        user_has_permission_or_403(request.user, eng, "view")
        item = get_object_or_404(Report.objects.filter(engagement=eng), id=rid)
        return render(request, "view.html", {"item": item})
`, 'from app.models import Engagement\n');
    expect(await recordReads({ ...POSITIVE, 'app/reports.py': parent })).toEqual(FOUND);
  });

  it('a process_view middleware checking the URL kwarg\'s record by URL name covers the views its map lists, not the others', async () => {
    const files = {
      ...POSITIVE,
      'app/settings.py': 'MIDDLEWARE = [\n    "django.contrib.auth.middleware.AuthenticationMiddleware",\n    "app.access.RecordAccessMiddleware",\n]\n',
      'app/access.py': `from django.shortcuts import get_object_or_404
from app.authorization import user_has_permission_or_403
from app.models import Report

RECORD_RULES = {
    "report-detail": (Report, "view", "eid"),
}


class RecordAccessMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def process_view(self, request, view_func, view_args, view_kwargs):
        rule = RECORD_RULES.get(request.resolver_match.url_name)
        if rule is None:
            return None
        model, permission, kwarg = rule
        record = get_object_or_404(model, pk=view_kwargs[kwarg])
        user_has_permission_or_403(request.user, record, permission)
`,
      'app/reports.py': djangoModule('Report', UNCHECKED_GET.replace('Engagement', 'Report')),
      'app/urls.py': `from django.urls import path
from app.engagements import ViewEngagement
from app.reports import ViewReport

urlpatterns = [
    path("engagements/<int:eid>/", ViewEngagement.as_view(), name="engagement-detail"),
    path("reports/<int:eid>/", ViewReport.as_view(), name="report-detail"),
]
`,
    };
    expect(await recordReads(files)).toEqual(FOUND);
  });
});
