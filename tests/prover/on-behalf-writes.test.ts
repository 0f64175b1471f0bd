/**
 * Records written for a user the request chose (src/prover/on-behalf-writes.ts): in a Symfony project
 * that has permissions to act for other users, an action that builds a record for a user taken from the
 * request needs such a permission (a viewing one does not count), a check bound to that user or to the
 * record, or a comparison with the logged-in user that decides something.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';
import type { ProverFinding } from '../../src/prover/types.js';

async function findingsOf(files: Record<string, string>): Promise<ProverFinding[]> {
  const result = await proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
  expect(result.coverage.entryPoints).toBeGreaterThan(0);
  return result.findings;
}

const ENTITIES = `<?php
namespace App\\Entity;
class User {}
class Timesheet
{
    public function setUser(User $user): void { $this->user = $user; }
}
`;

/** Where the project asks for acting for other users (the norm), or not. */
const team = (attribute: string) => `<?php
namespace App\\Controller;
class TimesheetTeamController extends AbstractController
{
    ${attribute}
    #[Route(path: '/team/timesheet/create', name: 'admin_timesheet_create', methods: ['GET', 'POST'])]
    public function createAction(Request $request): Response
    {
        return $this->render('timesheet/edit.html.twig');
    }
}
`;

const NORM = `#[IsGranted('create_other_timesheet')]`;

/** The action under judgement: `attributes` above it, `body` inside. */
const action = (body: string, attributes = '', parameters = 'Request $request') => `<?php
namespace App\\Controller;
use App\\Entity\\User;
use App\\Entity\\Timesheet;
#[IsGranted('IS_AUTHENTICATED_REMEMBERED')]
class QuickEntryController extends AbstractController
{
    ${attributes}
    #[Route(path: '/quick_entry/', name: 'quick_entry', methods: ['GET', 'POST'])]
    public function quickEntry(${parameters}): Response
    {
${body}
        return $this->render('quick-entry/index.html.twig');
    }
}
`;

/** The week form's data object names the user (Symfony fills it from the query). */
const FORM_USER = `        $values = new WeekByUser();
        $values->setUser($this->getUser());
        $form = $this->createFormForGetRequest(WeekByUserForm::class, $values, [
            'include_user' => $this->isGranted('view_other_timesheet'),
        ]);
        $form->submit($request->query->all(), false);
        $user = $values->getUser() ?? $this->getUser();`;
const CREATE = `        $tmp = $this->timesheetService->createNewTimesheet($user);
        $this->timesheetService->saveNewTimesheet($tmp);`;

const TABLE: { name: string; norm: string; action: string; owner: string | null }[] = [
  { name: 'the user of a submitted form, with only a viewing permission deciding the form', norm: NORM, action: action(`${FORM_USER}\n${CREATE}`), owner: '$user' },
  { name: 'a user looked up by a query parameter, set on a new record', norm: NORM, action: action(`        $user = $this->userRepository->find($request->query->get('user'));\n        $timesheet = new Timesheet();\n        $timesheet->setUser($user);\n        $this->repository->save($timesheet);`), owner: '$user' },
  { name: 'a route-bound user', norm: NORM, action: action(CREATE, '', 'User $user'), owner: '$user' },
  { name: 'a request payload mapped to an object (Symfony 6.3 value resolvers)', norm: NORM, action: action(`        $timesheet = new Timesheet();\n        $timesheet->setUser($payload->getUser());\n        $this->repository->save($timesheet);`, '', '#[MapRequestPayload] TimesheetInput $payload'), owner: '$payload->getUser()' },
  { name: 'a user named in a JSON body, made the author', norm: NORM, action: action(`        $data = json_decode($request->getContent(), true);\n        $author = $this->userRepository->find($data['author']);\n        $timesheet = new Timesheet();\n        $timesheet->setAuthor($author);\n        $this->repository->save($timesheet);`), owner: '$author' },
  { name: 'a viewing permission that refuses: viewing does not allow writing for them', norm: NORM, action: action(`${FORM_USER}\n        if (!$this->isGranted('view_other_timesheet')) {\n            throw $this->createAccessDeniedException();\n        }\n${CREATE}`), owner: '$user' },
  { name: 'the logged-in user', norm: NORM, action: action(`        $user = $this->getUser();\n${CREATE}`), owner: null },
  { name: 'the permission asked for is chosen by comparing the user with the logged-in one', norm: NORM, action: action(`${FORM_USER}\n        $allowCreate = $this->isGranted($user === $this->getUser() ? 'create_own_timesheet' : 'create_other_timesheet');\n${CREATE}`), owner: null },
  { name: 'a check bound to the record built for the user', norm: NORM, action: action(`${FORM_USER}\n        $tmp = $this->timesheetService->createNewTimesheet($user);\n        $this->denyAccessUnlessGranted('create', $tmp);\n        $this->timesheetService->saveNewTimesheet($tmp);`), owner: null },
  { name: 'a refusal when the user is not the logged-in one', norm: NORM, action: action(`${FORM_USER}\n        if ($user !== $this->getUser()) {\n            throw $this->createAccessDeniedException();\n        }\n${CREATE}`), owner: null },
  { name: 'a declared permission to act for others', norm: NORM, action: action(`${FORM_USER}\n${CREATE}`, NORM), owner: null },
  { name: 'a global role', norm: NORM, action: action(`${FORM_USER}\n${CREATE}`, `#[IsGranted('ROLE_SUPER_ADMIN')]`), owner: null },
  { name: 'a query filtered by the user builds no record', norm: NORM, action: action(`${FORM_USER}\n        $query = new TimesheetQuery();\n        $query->setUser($user);\n        $result = $this->repository->getTimesheetResult($query);`), owner: null },
  { name: 'a project without permissions for other users sets no norm', norm: `#[IsGranted('create_timesheet')]`, action: action(`${FORM_USER}\n${CREATE}`), owner: null },
];

describe('records written for a user the request chose', () => {
  for (const row of TABLE) {
    it(row.name, async () => {
      const findings = (await findingsOf({ 'src/Entity/Entities.php': ENTITIES, 'src/Controller/TimesheetTeamController.php': team(row.norm), 'src/Controller/QuickEntryController.php': row.action })).filter((f) => f.operation.id === 'php.on-behalf-write');
      if (row.owner === null) expect(findings.map((f) => f.evidence)).toEqual([]);
      else {
        expect(findings.map((f) => [f.label, f.unboundResource?.variable, f.entry.function, f.operation.kind])).toEqual([['resource_unbound', row.owner, 'QuickEntryController.quickEntry', 'data_write']]);
        expect(findings[0]?.unboundResource?.sentence).toContain("the project asks for a permission to act for other users elsewhere (TimesheetTeamController.createAction: IsGranted('create_other_timesheet'))");
      }
    });
  }
});

describe('authentication flows', () => {
  it('a password reset acts for the account the request named', async () => {
    const reset = `<?php
namespace App\\Controller\\Security;
use App\\Entity\\User;
class PasswordResetController extends AbstractController
{
    #[Route(path: '/send-email', name: 'resetting_send_email', methods: ['POST'])]
    public function sendEmailAction(Request $request): Response
    {
        $username = $request->request->get('username');
        $user = $this->userService->findUserByUsernameOrEmail($username);
        $link = $this->loginLinkHandler->createLoginLink($user, $request);
        return $this->redirectToRoute('resetting_check_email');
    }
}
`;
    const findings = await findingsOf({ 'src/Entity/Entities.php': ENTITIES, 'src/Controller/TimesheetTeamController.php': team(NORM), 'src/Controller/Security/PasswordResetController.php': reset });
    expect(findings.filter((f) => f.operation.id === 'php.on-behalf-write').map((f) => f.evidence)).toEqual([]);
    // The same body in an ordinary controller is a write for that user.
    const other = reset.replace(/PasswordResetController/g, 'LinkController').replace("'/send-email'", "'/links'").replace('sendEmailAction', 'linkAction').replace('Security', 'Admin');
    const found = await findingsOf({ 'src/Entity/Entities.php': ENTITIES, 'src/Controller/TimesheetTeamController.php': team(NORM), 'src/Controller/Admin/LinkController.php': other });
    expect(found.filter((f) => f.operation.id === 'php.on-behalf-write').map((f) => f.unboundResource?.variable)).toEqual(['$user']);
  });
});
