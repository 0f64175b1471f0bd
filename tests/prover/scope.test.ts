/**
 * The review's scoped prover reads only the files a change needs, and reports exactly what the prover
 * reading every file reports on that change. Each fixture is a small real-shaped repository (Laravel,
 * Jenkins/Stapler, Remix, Jetty servlets registered in code, Flask and FastAPI) padded with unrelated files, with a series
 * of commits; every commit is proved both ways from git's objects and the findings must be equal.
 */
import { describe, expect, it } from 'vitest';
import { createSourceReader } from '../../src/git/sources.js';
import { parseUnifiedDiff, touchedLines } from '../../src/git/diff.js';
import { openBoundary } from '../../src/policy/paths.js';
import { proveFromReader, type ProveFromReaderOutcome } from '../../src/prover/source.js';
import { selectScope, selectionDetail } from '../../src/prover/scope.js';
import { RECOGNISERS } from '../../src/prover/recognisers/index.js';
import { DECORATORS } from './python-fixtures.js';
import { buildIR, type FileIR } from '../../src/syntax/ir.js';
import { languageForPath } from '../../src/syntax/languages.js';
import { reposRemovedAfterEach, type FileMap, type TestRepo } from '../helpers/repo.js';

const makeRepo = reposRemovedAfterEach();

/** Prove the change `commit` (against its parent) of `repo`, scoped or reading every file. */
async function proveCommit(repo: TestRepo, commit: string, scoped: boolean, fanOut = 25, scopeFromBytes?: number): Promise<ProveFromReaderOutcome> {
  const diff = parseUnifiedDiff(repo.git('diff', '-U0', '--no-color', '--no-renames', `${commit}~1`, commit));
  const boundary = await openBoundary(repo.root, { followSymlinks: false });
  const reader = createSourceReader({ root: repo.root, boundary, source: { kind: 'revision', rev: commit }, maxFileBytes: 1 << 20, followSymlinks: false });
  const touched = diff.filter((f) => f.status !== 'deleted').map((f) => ({ path: f.path, lines: touchedLines(f) }));
  const irs = new Map<string, FileIR>();
  for (const { path } of touched) {
    const language = languageForPath(path);
    if (language !== null) irs.set(path, await buildIR(path, language, repo.git('show', `${commit}:${path}`)));
  }
  return proveFromReader({ root: repo.root, reader, touched, maxDepth: 3, fanOut, irs, scoped, scopeFromBytes: scopeFromBytes ?? 0 });
}

/** Unrelated files that name common words (delete, update, handle), so text search has noise to skip. */
function padding(count: number, make: (i: number) => [string, string]): FileMap {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => make(i)));
}

interface Case {
  name: string;
  initial: FileMap;
  /** Each change: a message and the files it writes. */
  changes: { message: string; files: FileMap }[];
  /** Findings the whole-repository prover must report over all the changes (so the comparison bites). */
  atLeastFindings: number;
}

const laravelController = (body: string) => `<?php
namespace App\\Http\\Controllers;

use App\\Services\\TeamService;
use Illuminate\\Http\\Request;

class TeamController extends Controller
{
    public function __construct(private TeamService $teams)
    {
    }

    public function removeMember(Request $request, $team, $member)
    {
${body}
        return back();
    }

    public function archive($team)
    {
        $this->teams->archive($team);
        return back();
    }
}
`;

const teamService = (detach: string) => `<?php
namespace App\\Services;

use App\\Models\\Membership;
use Illuminate\\Support\\Facades\\Storage;

class TeamService
{
    public function detachMember($teamId, $memberId): void
    {
        $membership = Membership::query()->where('team_id', $teamId)->where('user_id', $memberId)->${detach}();
        $membership->delete();
    }

    public function archive($teamId): void
    {
        $this->purgeFiles($teamId);
    }

    private function purgeFiles($teamId): void
    {
        Storage::deleteDirectory("teams/$teamId");
    }
}
`;

const laravel: Case = {
  name: 'Laravel: route file, controller, service',
  initial: {
    'routes/web.php': `<?php
use App\\Http\\Controllers\\TeamController;
use Illuminate\\Support\\Facades\\Route;

Route::post('/teams/{team}/members/{member}/remove', [TeamController::class, 'removeMember']);
Route::middleware(['auth', 'can:manage-teams'])->group(function () {
    Route::post('/teams/{team}/archive', [TeamController::class, 'archive']);
});
`,
    'app/Http/Controllers/Controller.php': `<?php
namespace App\\Http\\Controllers;

abstract class Controller
{
}
`,
    'app/Http/Controllers/TeamController.php': laravelController('        $this->teams->detachMember($team, $member);'),
    'app/Services/TeamService.php': teamService('first'),
    ...padding(40, (i) => [
      `app/Reports/Report${i}.php`,
      `<?php
namespace App\\Reports;

class Report${i}
{
    public function update($row)
    {
        $row->delete();
        return $this->render${i}($row);
    }

    private function render${i}($row)
    {
        return (string) $row;
    }
}
`,
    ]),
  },
  changes: [
    { message: 'service: stricter lookup', files: { 'app/Services/TeamService.php': teamService('firstOrFail') } },
    { message: 'controller: log the removal', files: { 'app/Http/Controllers/TeamController.php': laravelController("        logger('removing');\n        $this->teams->detachMember($team, $member);") } },
    { message: 'service: archive path', files: { 'app/Services/TeamService.php': teamService('firstOrFail').replace('"teams/$teamId"', '"archive/teams/$teamId"') } },
    { message: 'a report', files: { 'app/Reports/Report3.php': '<?php\nnamespace App\\Reports;\n\nclass Report3\n{\n    public function update($row)\n    {\n        return $row;\n    }\n}\n' } },
  ],
  atLeastFindings: 2,
};

const descriptor = (probeCall: string) => `package org.example;

import hudson.Extension;
import hudson.model.Item;
import hudson.tasks.BuildStepDescriptor;
import hudson.tasks.Builder;
import hudson.util.FormValidation;
import org.kohsuke.stapler.QueryParameter;

public class ConnectionStep extends Builder {
    @Extension
    public static class DescriptorImpl extends BuildStepDescriptor<Builder> {
        public FormValidation doTestConnection(@QueryParameter String endpoint, @QueryParameter String credentialsId) {
            ${probeCall}
        }

        public FormValidation doCheckEndpoint(@QueryParameter String endpoint) {
            Jenkins.get().checkPermission(Jenkins.ADMINISTER);
            return new EndpointProbe().probe(endpoint, null);
        }
    }
}
`;

const probe = (extra: string) => `package org.example;

import com.cloudbees.plugins.credentials.CredentialsProvider;
import java.util.List;

public class EndpointProbe {
    public FormValidation probe(String endpoint, String credentialsId) {
        List<StandardCredentials> all = CredentialsProvider.lookupCredentials(StandardCredentials.class, Jenkins.get(), ACL.SYSTEM, List.of());${extra}
        return FormValidation.ok();
    }
}
`;

const stapler: Case = {
  name: 'Jenkins plugin: descriptor web methods and a helper',
  initial: {
    'src/main/java/org/example/ConnectionStep.java': descriptor('return new EndpointProbe().probe(endpoint, credentialsId);'),
    'src/main/java/org/example/EndpointProbe.java': probe(''),
    ...padding(40, (i) => [
      `src/main/java/org/example/util/Helper${i}.java`,
      `package org.example.util;

public class Helper${i} {
    public String probe(String value) {
        return value.trim();
    }

    public void handle${i}(String value) {
        probe(value);
    }
}
`,
    ]),
  },
  changes: [
    { message: 'probe: log', files: { 'src/main/java/org/example/EndpointProbe.java': probe('\n        System.out.println(endpoint);') } },
    { message: 'descriptor: trim', files: { 'src/main/java/org/example/ConnectionStep.java': descriptor('return new EndpointProbe().probe(endpoint.trim(), credentialsId);') } },
    { message: 'helper', files: { 'src/main/java/org/example/util/Helper7.java': 'package org.example.util;\n\npublic class Helper7 {\n    public String probe(String value) {\n        return value;\n    }\n}\n' } },
  ],
  atLeastFindings: 2,
};

const removeUser = (where: string) => `import { prisma } from '~/db.server';

export async function removeUser(id: string) {
  return prisma.user.delete({ where: ${where} });
}

export async function renameUser(id: string, name: string) {
  return prisma.user.update({ where: { id }, data: { name } });
}
`;

const adminRoute = (line: string) => `import { json, type ActionFunctionArgs } from '@remix-run/node';
import { removeUser } from '~/models/user.server';

export async function action({ params }: ActionFunctionArgs) {
${line}
  return json({ ok: true });
}

export default function AdminUser() {
  return null;
}
`;

const remix: Case = {
  name: 'Remix: route modules and a model module',
  initial: {
    'app/routes/admin.users.$id.tsx': adminRoute('  await removeUser(params.id ?? "");'),
    'app/routes/settings.tsx': `import { json, type ActionFunctionArgs } from '@remix-run/node';
import { requireUserId } from '~/session.server';
import { renameUser } from '~/models/user.server';

export async function action({ request }: ActionFunctionArgs) {
  const userId = await requireUserId(request);
  await renameUser(userId, 'x');
  return json({ ok: true });
}
`,
    'app/models/user.server.ts': removeUser('{ id }'),
    'app/db.server.ts': "export const prisma = {} as never;\n",
    'app/session.server.ts': 'export async function requireUserId(request: Request): Promise<string> {\n  return request.url;\n}\n',
    ...padding(40, (i) => [
      `packages/ui/src/widget${i}.ts`,
      `export function widget${i}(items: string[]): string[] {
  return items.filter((item) => item !== 'delete');
}

export function update${i}(value: string): string {
  return widget${i}([value]).join(',');
}
`,
    ]),
  },
  changes: [
    { message: 'model: narrower delete', files: { 'app/models/user.server.ts': removeUser('{ id: id.trim() }') } },
    { message: 'route: validate', files: { 'app/routes/admin.users.$id.tsx': adminRoute('  if (!params.id) throw new Error("id");\n  await removeUser(params.id);') } },
    { message: 'ui', files: { 'packages/ui/src/widget5.ts': 'export function widget5(items: string[]): string[] {\n  return items;\n}\n' } },
  ],
  atLeastFindings: 2,
};

const registeredServlet = (body: string) => `package org.example.web;

import javax.servlet.http.HttpServlet;

public class ExportServlet extends HttpServlet {
    @Override
    protected void doPost(HttpServletRequest req, HttpServletResponse resp) {
${body}
    }
}
`;

const jetty: Case = {
  name: 'Jetty: a servlet registered in code runs a command through a helper',
  initial: {
    'src/main/java/org/example/Main.java': `package org.example;

import org.eclipse.jetty.servlet.ServletContextHandler;

public class Main {
    public static void main(String[] args) {
        ServletContextHandler context = new ServletContextHandler();
        context.addServlet(ExportServlet.class, "/export");
    }
}
`,
    'src/main/java/org/example/web/ExportServlet.java': registeredServlet('        new Exporter().run(req.getParameter("name"));'),
    'src/main/java/org/example/web/Exporter.java': `package org.example.web;

public class Exporter {
    public void run(String name) {
        new ProcessBuilder("tar", "czf", name).start();
    }
}
`,
    ...padding(30, (i) => [
      `src/main/java/org/example/jobs/Job${i}.java`,
      `package org.example.jobs;

public class Job${i} {
    public void run(String name) {
        System.out.println(name);
    }
}
`,
    ]),
  },
  changes: [
    { message: 'servlet: trim', files: { 'src/main/java/org/example/web/ExportServlet.java': registeredServlet('        new Exporter().run(req.getParameter("name").trim());') } },
    { message: 'job', files: { 'src/main/java/org/example/jobs/Job2.java': 'package org.example.jobs;\n\npublic class Job2 {\n    public void run(String name) {\n    }\n}\n' } },
  ],
  atLeastFindings: 1,
};

const flaskViews = (purge: string, mine = 'cid') => `from flask import Blueprint
from app.decorators import admins_only, authed_only
from app.models import db, Challenges

admin = Blueprint("admin", __name__)
me = Blueprint("me", __name__)

@admin.route("/admin/challenges/<int:cid>", methods=["DELETE"])
@admins_only
def delete_challenge(cid):
    challenge = Challenges.query.filter_by(id=cid).first_or_404()
    db.session.delete(challenge)

@admin.route("/admin/purge", methods=["POST"])
def purge():
${purge}

@me.route("/me/challenges/<int:cid>", methods=["DELETE"])
@authed_only
def delete_mine(cid):
    challenge = Challenges.query.filter_by(id=${mine}).first_or_404()
    db.session.delete(challenge)
`;

const flask: Case = {
  name: 'Flask and FastAPI: decorators, a blueprint hook and a dependency defined in other files',
  initial: {
    'app/decorators.py': DECORATORS,
    'app/hooks.py': `from flask import abort
from flask_login import current_user
from app.admin import admin

@admin.before_request
def only_admins():
    if not current_user.is_admin:
        abort(403)
`,
    'app/admin.py': flaskViews('    Challenges.query.filter_by(hidden=True).delete()'),
    'api/deps.py': `from fastapi import Depends, HTTPException

def get_current_active_superuser(user = Depends(get_current_user)):
    if not user.is_superuser:
        raise HTTPException(status_code=403, detail="not enough privileges")
    return user
`,
    'api/items.py': `from fastapi import APIRouter, Depends
from api.deps import get_current_active_superuser

router = APIRouter()

@router.delete("/items/{item_id}")
def delete_item(item_id: int, db = Depends(get_db), user = Depends(get_current_active_superuser)):
    item = db.query(Item).get(item_id)
    db.delete(item)
`,
    ...padding(30, (i) => [`app/jobs/job${i}.py`, `def run(name):\n    print(name)\n\ndef delete(name):\n    return name\n`]),
  },
  changes: [
    { message: 'admin: purge visible too', files: { 'app/admin.py': flaskViews('    Challenges.query.filter_by(hidden=False).delete()') } },
    { message: 'mine: by int (a login only: a finding)', files: { 'app/admin.py': flaskViews('    Challenges.query.filter_by(hidden=False).delete()', 'int(cid)') } },
    { message: 'items: trim', files: { 'api/items.py': 'from fastapi import APIRouter, Depends\nfrom api.deps import get_current_active_superuser\n\nrouter = APIRouter()\n\n@router.delete("/items/{item_id}")\ndef delete_item(item_id: int, db = Depends(get_db), user = Depends(get_current_active_superuser)):\n    item = db.query(Item).get(int(item_id))\n    db.delete(item)\n' } },
  ],
  atLeastFindings: 1,
};

const nestController = (body: string) => `import { Controller, Delete, Param, Put, UseGuards } from '@nestjs/common';
import { RolesGuard } from '../auth/roles.guard';
import { Roles } from '../auth/roles.decorator';
import { TeamsService } from './teams.service';

@Controller('teams')
@UseGuards(RolesGuard)
export class TeamsController {
  constructor(private readonly teams: TeamsService) {}

  @Delete(':id')
  @Roles('admin')
  remove(@Param('id') id: string) {
    return this.teams.remove(id);
  }

  @Put(':id')
  rename(@Param('id') id: string) {
${body}
  }
}
`;

const nestjs: Case = {
  name: 'NestJS: a controller behind a global login guard and a roles guard in other files',
  initial: {
    'src/teams/teams.controller.ts': nestController('    return this.teams.rename(id);'),
    'src/teams/teams.service.ts': `import { Injectable } from '@nestjs/common';
@Injectable()
export class TeamsService {
  constructor(private readonly teamRepository: Repository<Team>) {}
  async remove(id: string) {
    await this.teamRepository.delete(id);
  }
  async rename(id: string) {
    await this.teamRepository.update(id, { name: 'x' });
  }
}
`,
    'src/auth/roles.decorator.ts': "import { SetMetadata } from '@nestjs/common';\nexport const ROLES_KEY = 'roles';\nexport const Roles = (...roles: string[]) => SetMetadata(ROLES_KEY, roles);\n",
    'src/auth/roles.guard.ts': `import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ROLES_KEY } from './roles.decorator';
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    const roles = this.reflector.getAllAndOverride<string[]>(ROLES_KEY, [context.getHandler(), context.getClass()]);
    if (!roles) {
      return true;
    }
    return roles.includes(context.switchToHttp().getRequest().user.role);
  }
}
`,
    'src/auth/jwt.guard.ts': "import { Injectable } from '@nestjs/common';\nimport { AuthGuard } from '@nestjs/passport';\n@Injectable()\nexport class JwtGuard extends AuthGuard('jwt') {}\n",
    'src/app.module.ts': "import { Module } from '@nestjs/common';\nimport { APP_GUARD } from '@nestjs/core';\nimport { JwtGuard } from './auth/jwt.guard';\n@Module({ providers: [{ provide: APP_GUARD, useClass: JwtGuard }] })\nexport class AppModule {}\n",
    ...padding(40, (i) => [
      `src/util/format${i}.ts`,
      `export function format${i}(items: string[]): string[] {
  return items.filter((item) => item !== 'delete');
}
`,
    ]),
  },
  changes: [
    { message: 'controller: trim', files: { 'src/teams/teams.controller.ts': nestController('    return this.teams.rename(id.trim());') } },
    { message: 'util', files: { 'src/util/format3.ts': 'export function format3(items: string[]): string[] {\n  return items;\n}\n' } },
  ],
  atLeastFindings: 1,
};

const nestPadding = padding(40, (i) => [
  `src/util/format${i}.ts`,
  `export function format${i}(items: string[]): string[] {
  return items.filter((item) => item !== 'delete');
}
`,
]);

/** The NestJS fixture's controller, guards and module, with its own service. */
const nestWith = (service: string, more: FileMap): FileMap => ({ ...nestjs.initial, 'src/teams/teams.service.ts': service, ...more, ...nestPadding });

const nestBracedParameters: Case = {
  name: 'NestJS: a service method whose parameter list holds braces (a default `{}`) calls a helper class two hops below the change',
  initial: nestWith(
    `import { Injectable } from '@nestjs/common';
import { Purger } from '../jobs/purger';
@Injectable()
export class TeamsService {
  constructor(private readonly purger: Purger) {}
  async remove(id: string) {
    await this.purger.purge(id);
  }
  async rename(id: string, options: { force?: boolean } = {}) {
    await this.purger.purge(id);
  }
}
`,
    {
      'src/jobs/purger.ts': `import { Injectable } from '@nestjs/common';
@Injectable()
export class Purger {
  constructor(private readonly teamRepository: Repository<Team>) {}
  async purge(id: string) {
    await this.teamRepository.delete(id);
  }
}
`,
    },
  ),
  changes: [{ message: 'controller: trim', files: { 'src/teams/teams.controller.ts': nestController('    return this.teams.rename(id.trim());') } }],
  atLeastFindings: 1,
};

const nestAmbiguousMethod: Case = {
  name: 'NestJS: a method name two classes declare stays ambiguous in the selection (an untyped receiver is not followed into the one selected)',
  initial: nestWith(
    `import { Injectable } from '@nestjs/common';
import { SettingsService } from '../settings/settings.service';
@Injectable()
export class TeamsService {
  constructor(private readonly settings: SettingsService, private readonly teamRepository: Repository<Team>) {}
  async remove(id: string) {
    await this.teamRepository.delete(id);
  }
  async rename(id: string) {
    this.settings.read('teams');
    await this.prisma.team.update(id);
  }
}
`,
    {
      'src/settings/settings.service.ts': `import { Injectable } from '@nestjs/common';
@Injectable()
export class SettingsService {
  constructor(private readonly settingRepository: Repository<Setting>) {}
  read(key: string) {
    return key;
  }
  async update(key: string) {
    await this.settingRepository.delete(key);
  }
}
`,
      'src/audit/audit.service.ts': `import { Injectable } from '@nestjs/common';
@Injectable()
export class AuditService {
  constructor(private readonly auditRepository: Repository<Audit>) {}
  async update(key: string) {
    await this.auditRepository.delete(key);
  }
}
`,
    },
  ),
  changes: [{ message: 'controller: trim', files: { 'src/teams/teams.controller.ts': nestController('    return this.teams.rename(id.trim());') } }],
  atLeastFindings: 1,
};

// A Next.js route handed to the project's wrapper through a barrel (`@/lib/auth` → lib/auth/index.ts →
// ./team): the wrapper's check is the handler's, so the scoped selection reads the wrapper and the barrel.
/** Forty UI helpers of a Next.js monorepo naming `word`, so text search has noise to skip. */
const uiWidgets = (word: string): FileMap =>
  padding(40, (i) => [`packages/ui/src/widget${i}.ts`, `export function widget${i}(items: string[]): string[] {\n  return items.filter((item) => item !== '${word}');\n}\n`]);
const teamRoute = (body: string) => `import { withTeam } from "@/lib/auth";
import { prisma } from "@/lib/prisma";

export const DELETE = withTeam(async ({ req }) => {
  const { linkId } = await req.json();
${body}
  return Response.json({ ok: true });
});
`;
const nextWrapper: Case = {
  name: 'Next.js: a route wrapper imported through a barrel',
  initial: {
    'package.json': '{"dependencies":{"next":"14.2.0"}}',
    'apps/web/lib/auth/index.ts': 'export * from "./team";\n',
    'apps/web/lib/auth/team.ts': `import { prisma } from "@/lib/prisma";
import { NextResponse } from "next/server";

export const withTeam = (handler: any) => {
  return async (req: Request, { params }: { params: Promise<Record<string, string>> }) => {
    try {
      const { slug } = await params;
      const team = await prisma.team.findUnique({ where: { slug } });
      if (!team || team.users.length === 0) {
        throw new ApiError({ code: "forbidden", message: "Not a member." });
      }
      return await handler({ req, team });
    } catch (err) {
      return NextResponse.json({ error: String(err) }, { status: 403 });
    }
  };
};
`,
    'apps/web/lib/prisma.ts': 'export const prisma = {} as any;\n',
    'apps/web/app/api/[slug]/links/route.ts': teamRoute('  await prisma.link.delete({ where: { id: linkId } });'),
    'apps/web/app/api/open/route.ts': 'import { prisma } from "@/lib/prisma";\n\nexport async function DELETE(req: Request) {\n  await prisma.link.deleteMany({});\n  return Response.json({ ok: true });\n}\n',
    ...uiWidgets('delete'),
  },
  changes: [
    { message: 'route: trim', files: { 'apps/web/app/api/[slug]/links/route.ts': teamRoute('  await prisma.link.delete({ where: { id: linkId.trim() } });') } },
    { message: 'open: one', files: { 'apps/web/app/api/open/route.ts': 'import { prisma } from "@/lib/prisma";\n\nexport async function DELETE(req: Request) {\n  await prisma.link.delete({ where: { id: "x" } });\n  return Response.json({ ok: true });\n}\n' } },
  ],
  atLeastFindings: 1,
};

const safeAction = (body: string, check = '    throwIfNoRole(ctx.user.role);') => `"use server";

import { prisma } from "@/lib/prisma";
import { authUserActionClient } from "../safe-action";
import { throwIfNoRole } from "../roles";

export const archiveNoteAction = authUserActionClient
  .inputSchema(noteSchema)
  .action(async ({ parsedInput, ctx }) => {
${check}
${body}
    return { ok: true };
  });
`;
const nextSafeAction: Case = {
  name: 'Next.js: a next-safe-action client whose middleware checks the session',
  initial: {
    'package.json': '{"dependencies":{"next":"14.2.0","next-safe-action":"8.0.0"}}',
    'apps/web/lib/auth/index.ts': 'export const getSession = async (): Promise<any> => null;\n',
    'apps/web/lib/actions/safe-action.ts': `import { createSafeActionClient } from "next-safe-action";
import { getSession } from "../auth";

export const actionClient = createSafeActionClient();

export const authUserActionClient = actionClient.use(async ({ next }) => {
  const session = await getSession();
  if (!session?.user.id) {
    throw new Error("Login required.");
  }
  return next({ ctx: { user: session.user } });
});
`,
    'apps/web/lib/prisma.ts': 'export const prisma = {} as any;\n',
    'apps/web/lib/actions/roles.ts': 'export function throwIfNoRole(role: string) {\n  if (role !== "owner") {\n    throw new Error("Owners only.");\n  }\n}\n',
    'apps/web/lib/actions/notes/archive-note.ts': safeAction('    await prisma.note.update({ where: { id: parsedInput.noteId }, data: { archived: true } });'),
    ...uiWidgets('update'),
  },
  changes: [
    { message: 'action: trim', files: { 'apps/web/lib/actions/notes/archive-note.ts': safeAction('    await prisma.note.update({ where: { id: parsedInput.noteId.trim() }, data: { archived: true } });') } },
    { message: 'action: no role check', files: { 'apps/web/lib/actions/notes/archive-note.ts': safeAction('    await prisma.note.update({ where: { id: parsedInput.noteId.trim() }, data: { archived: true } });', '') } },
  ],
  atLeastFindings: 1,
};

const storeRoutes = (guard: string) => `import express from 'express';
import storesController from '../../controllers/stores';
import { checkPermission } from '../../auth/permissions';

const router = express.Router();

router.get('/', storesController.listStores);

router.delete(['/', '/:id'], ${guard}storesController.removeStore);

export default router;
`;

const expressRegistration: Case = {
  name: 'Express: a change to a route registration alone reads the handler it hands over (a controller of a default-exported object), what that calls, and the middleware it names',
  initial: {
    'src/routes/stores/index.ts': storeRoutes("checkPermission('stores:delete'), "),
    'src/controllers/stores/index.ts': `import storesService from '../../services/stores';
const removeStore = async (req: Request, res: Response) => {
  return res.json(await storesService.removeStore(req.params.id));
};
const listStores = async (req: Request, res: Response) => res.json([]);
export default { removeStore, listStores };
`,
    'src/services/stores/index.ts': `import { prisma } from '../../db';
const removeStore = async (id: string) => {
  return prisma.store.delete({ where: { id } });
};
export default { removeStore };
`,
    'src/auth/permissions.ts': `export const checkPermission = (permission: string) => (req: Request, res: Response, next: NextFunction) => {
  if (!req.user.permissions.includes(permission)) {
    return res.status(403).json({ error: 'forbidden' });
  }
  next();
};
`,
    ...nestPadding,
  },
  changes: [
    { message: 'routes: drop the permission check', files: { 'src/routes/stores/index.ts': storeRoutes('') } },
    { message: 'routes: check the permission again', files: { 'src/routes/stores/index.ts': storeRoutes("checkPermission('stores:delete'), ") } },
  ],
  atLeastFindings: 1,
};

/** A package that registers its middleware from its own provider and checks routes against a route-name access list. */
const packageController = (body: string) => `<?php
namespace Acme\\Crm\\Http\\Controllers;

class ProductController
{
    public function destroy($id)
    {
${body}
        Product::destroy($id);
        return back();
    }

    public function wipe($id)
    {
${body}
        Product::destroy($id);
        return back();
    }
}
`;
const laravelPackage: Case = {
  name: "Laravel: a package's provider names the middleware, whose access list names the routes",
  initial: {
    'packages/Acme/Crm/src/Http/routes.php': `<?php
Route::group(['middleware' => ['crm-user']], function () {
    Route::delete('products/{id}', 'Acme\\Crm\\Http\\Controllers\\ProductController@destroy')->name('crm.products.delete');
    Route::delete('products/{id}/wipe', 'Acme\\Crm\\Http\\Controllers\\ProductController@wipe')->name('crm.products.wipe');
});
`,
    'packages/Acme/Crm/src/Providers/CrmServiceProvider.php': `<?php
namespace Acme\\Crm\\Providers;

use Illuminate\\Routing\\Router;
use Acme\\Crm\\Http\\Middleware\\CrmGate;

class CrmServiceProvider
{
    public function boot(Router $router)
    {
        $this->loadRoutesFrom(__DIR__ . '/../Http/routes.php');
        $router->aliasMiddleware('crm-user', CrmGate::class);
    }
}
`,
    'packages/Acme/Crm/src/Http/Middleware/CrmGate.php': `<?php
namespace Acme\\Crm\\Http\\Middleware;

use Closure;
use Illuminate\\Support\\Facades\\Auth;
use Illuminate\\Support\\Facades\\Route;

class CrmGate
{
    public function handle($request, Closure $next)
    {
        if (! Auth::guard('crm')->check()) {
            return redirect()->route('crm.login');
        }

        $this->authoriseRoute();

        return $next($request);
    }

    private function authoriseRoute()
    {
        $acl = app('acl');
        if (isset($acl->roles[Route::currentRouteName()])) {
            crm_gate()->allow($acl->roles[Route::currentRouteName()]);
        }
    }
}
`,
    'packages/Acme/Crm/src/Config/acl.php': "<?php\nreturn [\n    ['key' => 'products.delete', 'route' => 'crm.products.delete'],\n];\n",
    'packages/Acme/Crm/src/Http/Controllers/ProductController.php': packageController(''),
    ...padding(40, (i) => [`packages/Acme/Crm/src/Reports/Report${i}.php`, `<?php\nnamespace Acme\\Crm\\Reports;\n\nclass Report${i}\n{\n    public function destroy($row)\n    {\n        return (string) $row;\n    }\n}\n`]),
  },
  changes: [{ message: 'controller: log the deletion', files: { 'packages/Acme/Crm/src/Http/Controllers/ProductController.php': packageController("        logger('deleting');") } }],
  atLeastFindings: 1,
};

describe('the scoped prover reports what the whole-repository prover reports on each change', () => {
  for (const fixture of [laravel, laravelPackage, stapler, remix, jetty, flask, nestjs, nestBracedParameters, nestAmbiguousMethod, nextWrapper, nextSafeAction, expressRegistration]) {
    it(fixture.name, async () => {
      const repo = makeRepo(fixture.initial);
      let wholeFindings = 0;
      for (const change of fixture.changes) {
        const commit = repo.commit(change.files, change.message);
        const scoped = await proveCommit(repo, commit, true);
        const whole = await proveCommit(repo, commit, false);
        expect(scoped.result.findings, change.message).toEqual(whole.result.findings);
        expect(scoped.incomplete, change.message).toBe(false);
        expect(scoped.selection?.bounds).toEqual([]);
        expect(scoped.fileCount, change.message).toBeLessThan(whole.fileCount / 2);
        expect(whole.selection).toBeNull();
        wholeFindings += whole.result.findings.length;
      }
      expect(wholeFindings).toBeGreaterThanOrEqual(fixture.atLeastFindings);
    });
  }
});

describe('what the scoped selection reads and says', () => {
  it('below the size the review scopes from, every file is read, as jscr prove reads them', async () => {
    const repo = makeRepo(laravel.initial);
    const commit = repo.commit({ 'app/Services/TeamService.php': teamService('firstOrFail') }, 'service');
    const small = await proveCommit(repo, commit, true, 25, 64 * 1024 * 1024);
    expect(small.selection).toBeNull();
    expect(small.readDetail).toBe('44 file(s) read');
    const large = await proveCommit(repo, commit, true, 25, 1);
    expect(large.selection).not.toBeNull();
    expect(large.fileCount).toBeLessThan(small.fileCount / 2);
    expect(large.result.findings).toEqual(small.result.findings);
  });

  it('names its reasons and the candidate count, and leaves the padding out', async () => {
    const repo = makeRepo(laravel.initial);
    const commit = repo.commit({ 'app/Services/TeamService.php': teamService('firstOrFail') }, 'service');
    const outcome = await proveCommit(repo, commit, true);
    expect(outcome.readDetail).toMatch(/^\d+ of 44 files: 1 changed, \d+ callers(, \d+ \w+)*, 1 routes$/);
    expect(outcome.selection?.paths).toEqual(expect.arrayContaining(['app/Services/TeamService.php', 'app/Http/Controllers/TeamController.php', 'routes/web.php', 'app/Http/Controllers/Controller.php']));
    expect(outcome.selection?.paths.some((p) => p.startsWith('app/Reports/'))).toBe(false);
    expect(outcome.result.findings.map((f) => `${f.path}:${f.line}`)).toEqual(['app/Services/TeamService.php:12']);
  });

  it('a name in more files than fan_out allows is cut there, as the proof itself follows at most fan_out callers: complete, and the detail says which name', async () => {
    const callers = padding(6, (i) => [`app/Jobs/Job${i}.php`, `<?php\nclass Job${i}\n{\n    public function handle(\\App\\Services\\TeamService $teams)\n    {\n        $teams->detachMember(1, 2);\n    }\n}\n`]);
    const repo = makeRepo({ ...laravel.initial, ...callers });
    const commit = repo.commit({ 'app/Services/TeamService.php': teamService('firstOrFail') }, 'service');
    const outcome = await proveCommit(repo, commit, true, 3);
    expect(outcome.incomplete).toBe(false);
    expect(outcome.selection?.bounds).toEqual([]);
    expect(outcome.selection?.cuts[0]).toMatch(/^'detachMember' is named in \d+ files, more than prover\.fan_out \(3\); callers in the first 3 were read/);
    expect(outcome.readDetail).toMatch(/1 name\(s\) cut at prover\.fan_out/);
  });

  it('jscr prove (no touched lines) reads every file', async () => {
    const repo = makeRepo(laravel.initial);
    const boundary = await openBoundary(repo.root, { followSymlinks: false });
    const reader = createSourceReader({ root: repo.root, boundary, source: { kind: 'revision', rev: 'HEAD' }, maxFileBytes: 1 << 20, followSymlinks: false });
    const outcome = await proveFromReader({ root: repo.root, reader, touched: null, maxDepth: 3, fanOut: 25 });
    expect(outcome.selection).toBeNull();
    expect(outcome.fileCount).toBe(44);
    expect(outcome.readDetail).toBe('44 file(s) read');
  });

  it('callers are found by whole words only, through PHP and JS identifier rules', () => {
    const files = [
      { path: 'a.ts', text: 'export function wipe(id: string) {\n  return id;\n}\n', factsLanguage: 'typescript' as const },
      { path: 'b.ts', text: 'import { wipe } from "./a";\nexport function run() {\n  return wipe("x");\n}\n', factsLanguage: 'typescript' as const },
      { path: 'c.ts', text: 'export function other() {\n  return $wipe + wipeAll() + unwipe();\n}\n', factsLanguage: 'typescript' as const },
    ];
    const selection = selectScope({ files, touched: [{ path: 'a.ts', lines: new Set([2]) }], registrations: [], alwaysRead: () => false, maxDepth: 3, fanOut: 25, downDepth: 2 });
    expect(selection.paths).toEqual(['a.ts', 'b.ts']);
    expect(selectionDetail(selection, 1806)).toBe('2 of 1,806 files: 1 changed, 1 callers');
  });

  it('the classes a changed function names in its decorators, parameters and body are selected, with their ancestors: an entity a parameter converts to, a decorator class', () => {
    const php = (path: string, text: string) => ({ path, text, factsLanguage: 'php' as const });
    const unrelated = Array.from({ length: 20 }, (_, i) => php(`src/Entity/Other${i}.php`, `<?php\nclass Other${i}\n{\n    public function label() { return ${i}; }\n}\n`));
    const files = [
      php('src/API/InvoiceController.php', `<?php\nclass InvoiceController\n{\n    #[IsGranted('view_invoice')]\n    #[Audit(new AuditScope('invoice'))]\n    public function getAction(Invoice $invoice): Response\n    {\n        return new Response($invoice->getId());\n    }\n}\n`),
      php('src/Entity/Invoice.php', `<?php\n#[ORM\\Entity]\nclass Invoice extends AbstractDocument\n{\n}\n`),
      php('src/Entity/AbstractDocument.php', '<?php\nabstract class AbstractDocument\n{\n}\n'),
      php('src/Attribute/AuditScope.php', '<?php\nclass AuditScope\n{\n}\n'),
      ...unrelated,
    ];
    const selection = selectScope({ files, touched: [{ path: 'src/API/InvoiceController.php', lines: new Set([8]) }], registrations: [], alwaysRead: () => false, maxDepth: 3, fanOut: 25, downDepth: 2 });
    expect(selection.paths).toEqual(['src/API/InvoiceController.php', 'src/Attribute/AuditScope.php', 'src/Entity/AbstractDocument.php', 'src/Entity/Invoice.php']);
  });

  it('a caller\'s decorators are read as far as a decorator spans lines, and no further', () => {
    const ts = (path: string, text: string) => ({ path, text, factsLanguage: 'typescript' as const });
    const files = [
      ts('src/store.ts', 'export class Store {\n  wipe(id: string) {\n    return id;\n  }\n}\n'),
      ts('src/admin.ts', "import { Store } from './store';\nexport class Admin {\n  constructor(private store: Store) {}\n  other() {\n    return new Unrelated();\n  }\n  @Guarded(\n    AdminPolicy,\n  )\n  purge() {\n    return this.store.wipe('x');\n  }\n}\n"),
      ts('src/policy.ts', 'export class AdminPolicy {}\n'),
      ts('src/unrelated.ts', 'export class Unrelated {}\n'),
    ];
    const selection = selectScope({ files, touched: [{ path: 'src/store.ts', lines: new Set([3]) }], registrations: [], alwaysRead: () => false, maxDepth: 3, fanOut: 25, downDepth: 2 });
    expect(selection.paths).toEqual(['src/admin.ts', 'src/policy.ts', 'src/store.ts']);
  });

  it('the definition of a decorator a changed file uses is selected, and walked: the check sits in its wrapper', () => {
    const py = (path: string, text: string) => ({ path, text, factsLanguage: 'python' as const });
    const files = [
      py('resources/tickets.py', 'from resources.admin_required import admin_required\n\nclass Ticket(Resource):\n    @admin_required\n    def get(self, id):\n        return TicketModel.find_by_id(id)\n\n    def put(self, id):\n        return TicketModel.find_by_id(id).save_to_db()\n'),
      py('resources/admin_required.py', 'def admin_required(func):\n    def check_admin_wrapper(*args, **kwargs):\n        if not current_claims()["is_admin"]:\n            return {}, 401\n        return func(*args, **kwargs)\n    return check_admin_wrapper\n'),
      py('resources/claims.py', 'def current_claims():\n    return {}\n'),
      py('resources/mail.py', 'def send(to):\n    return to\n'),
    ];
    const selection = selectScope({ files, touched: [{ path: 'resources/tickets.py', lines: new Set([9]) }], registrations: [], alwaysRead: () => false, maxDepth: 3, fanOut: 25, downDepth: 2 });
    expect(selection.paths).toEqual(['resources/admin_required.py', 'resources/claims.py', 'resources/tickets.py']);
  });

  it('a class-based handler\'s folder siblings with request verbs are selected (the folder\'s declared-permission norm reads them), other folders not', () => {
    const py = (path: string, text: string) => ({ path, text, factsLanguage: 'python' as const });
    const resource = (name: string) => `class ${name}(Resource):\n    @admins_only\n    def get(self):\n        return ${name}Model.query.count()\n`;
    const files = [
      py('api/statistics/users.py', 'class UserStatistics(Resource):\n    def get(self):\n        return Users.query.count()\n'),
      py('api/statistics/teams.py', resource('TeamStatistics')),
      py('api/statistics/scores.py', resource('ScoreStatistics')),
      py('api/statistics/helpers.py', 'def total(rows):\n    return len(rows)\n'),
      py('api/users/users.py', resource('UserList')),
      py('utils/decorators.py', 'def admins_only(f):\n    def wrapper(*args, **kwargs):\n        if not is_admin():\n            abort(403)\n        return f(*args, **kwargs)\n    return wrapper\n'),
    ];
    const selection = selectScope({ files, touched: [{ path: 'api/statistics/users.py', lines: new Set([2]) }], registrations: [], alwaysRead: () => false, maxDepth: 3, fanOut: 25, downDepth: 2 });
    expect(selection.paths).toEqual(['api/statistics/scores.py', 'api/statistics/teams.py', 'api/statistics/users.py', 'utils/decorators.py']);
    expect(selection.byReason.siblings).toBe(2);
  });

  it('the middleware classes a kernel lists are selected (what a route\'s `auth` alias does), the controllers a route file names are not', () => {
    const php = (path: string, text: string) => ({ path, text, factsLanguage: 'php' as const });
    const files = [
      php('app/Http/Kernel.php', "<?php\nclass Kernel extends HttpKernel\n{\n    protected $routeMiddleware = [\n        'auth' => \\App\\Http\\Middleware\\Authenticate::class,\n    ];\n}\n"),
      php('app/Http/Middleware/Authenticate.php', '<?php\nclass Authenticate\n{\n    public function handle($request, $next)\n    {\n        return $next($request);\n    }\n}\n'),
      php('routes/web.php', "<?php\nRoute::middleware('auth')->group(function () {\n    Route::get('/users/{id}', [UserController::class, 'edit']);\n    Route::get('/books', [BookController::class, 'index']);\n});\n"),
      php('app/Http/Controllers/UserController.php', '<?php\nclass UserController\n{\n    public function edit($id)\n    {\n        return $id;\n    }\n}\n'),
      php('app/Http/Controllers/BookController.php', '<?php\nclass BookController\n{\n    public function index()\n    {\n        return 1;\n    }\n}\n'),
    ];
    const selection = selectScope({ files, touched: [{ path: 'app/Http/Controllers/UserController.php', lines: new Set([6]) }], registrations: RECOGNISERS.map((r) => r.registrationFiles ?? {}), alwaysRead: () => false, maxDepth: 3, fanOut: 25, downDepth: 2 });
    expect(selection.paths).toEqual(['app/Http/Controllers/UserController.php', 'app/Http/Kernel.php', 'app/Http/Middleware/Authenticate.php', 'routes/web.php']);
  });

  it('the other writers of a model the change writes that compare roles are selected (the role-hierarchy norm is read off them)', () => {
    const ts = (path: string, text: string) => ({ path, text, factsLanguage: 'typescript' as const });
    const files = [
      ts('routes/delete-group.ts', 'export const deleteGroupRoute = procedure.mutation(async ({ input }) => {\n  await prisma.organisationGroup.delete({ where: { id: input.id } });\n});\n'),
      ts('routes/update-group.ts', 'export const updateGroupRoute = procedure.mutation(async ({ input }) => {\n  if (!isRoleWithinHierarchy(currentRole, group.organisationRole)) throw new Error();\n  await prisma.organisationGroup.update({ where: { id: input.id } });\n});\n'),
      ts('routes/update-team.ts', 'export const updateTeamRoute = procedure.mutation(async ({ input }) => {\n  if (!isRoleWithinHierarchy(currentRole, team.teamRole)) throw new Error();\n  await prisma.team.update({ where: { id: input.id } });\n});\n'),
      ts('routes/rename-group.ts', 'export const renameGroupRoute = procedure.mutation(async ({ input }) => {\n  await prisma.organisationGroup.update({ where: { id: input.id } });\n});\n'),
    ];
    const selection = selectScope({ files, touched: [{ path: 'routes/delete-group.ts', lines: new Set([2]) }], registrations: [], alwaysRead: () => false, maxDepth: 3, fanOut: 25, downDepth: 2 });
    expect(selection.paths).toEqual(['routes/delete-group.ts', 'routes/update-group.ts']);
  });

  it('a module function is looked for in the files that import its module, not every file naming it', () => {
    const users = Array.from({ length: 30 }, (_, i) => ({ path: `src/local${i}.ts`, text: `export function local${i}() {\n  const wipe = () => ${i};\n  return wipe();\n}\n`, factsLanguage: 'typescript' as const }));
    const files = [
      { path: 'src/store.ts', text: 'export function wipe(id: string) {\n  return id;\n}\n', factsLanguage: 'typescript' as const },
      { path: 'src/admin.ts', text: 'import { wipe } from "./store";\nexport function purge() {\n  return wipe("x");\n}\n', factsLanguage: 'typescript' as const },
      ...users,
    ];
    const selection = selectScope({ files, touched: [{ path: 'src/store.ts', lines: new Set([2]) }], registrations: [], alwaysRead: () => false, maxDepth: 3, fanOut: 25, downDepth: 2 });
    expect(selection.bounds).toEqual([]);
    expect(selection.paths).toEqual(['src/admin.ts', 'src/store.ts']);
  });
});

describe('module-level statements of a JS/TS change', () => {
  it('a touched registration line hands over its handler and middleware; an import or a class is no such statement', async () => {
    const { moduleStatementAt, handedNames } = await import('../../src/prover/module-statements.js');
    const text = "import x from './x';\nrouter.put(\n  ['/', '/:id'],\n  checkPermission('a'),\n  controller.update,\n);\nclass A {\n  b = 1;\n}\n";
    const starts = [0];
    for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    const span = moduleStatementAt(text, starts, 4);
    expect(span && text.slice(span.start, span.end)).toBe("router.put(\n  ['/', '/:id'],\n  checkPermission('a'),\n  controller.update,\n);");
    expect(handedNames(text.slice(span?.start ?? 0, span?.end ?? 0))).toEqual([{ name: 'update', received: true }]);
    expect(moduleStatementAt(text, starts, 1)).toBeNull();
    expect(moduleStatementAt(text, starts, 8)).toBeNull();
    expect(handedNames('app.get("/", requireLogin, list)').map((h) => h.name)).toEqual(['requireLogin', 'list']);
  });

  it('an inline handler\'s body hands nothing over: its property reads are no functions', async () => {
    const { handedNames } = await import('../../src/prover/module-statements.js');
    const statement = 'router.post("documents.import", auth(), validate(T.Schema), async (ctx) => {\n  const { id } = ctx.request.body;\n  await store.update(id, ctx.state.auth.user);\n});';
    expect(handedNames(statement).map((h) => h.name)).toEqual(['Schema']);
  });
});

describe('declarations found by text', () => {
  it('an object key ending a function\'s body is no declaration that swallows the next `export const check = (...) =>`', () => {
    const ts = (path: string, text: string) => ({ path, text, factsLanguage: 'typescript' as const });
    const files = [
      ts('src/routes/stores.ts', "import { checkAny } from '../auth/check';\nrouter.delete('/:id', checkAny('stores:delete'), controller.remove)\n"),
      ts('src/auth/check.ts', "export const checkOne = (p: string) => (req, res, next) => {\n  return res.status(403).json({ message: Messages.FORBIDDEN })\n}\n\n// any of several\nexport const checkAny = (p: string) => (req, res, next) => {\n  return res.status(403).json({ message: Messages.FORBIDDEN })\n}\n"),
      ts('src/auth/other.ts', 'export const unrelated = (x: string) => x;\n'),
    ];
    const selection = selectScope({ files, touched: [{ path: 'src/routes/stores.ts', lines: new Set([2]) }], registrations: [], alwaysRead: () => false, maxDepth: 3, fanOut: 25, downDepth: 2 });
    expect(selection.paths).toEqual(['src/auth/check.ts', 'src/routes/stores.ts']);
  });
});
