/**
 * The base controller of a Laravel application whose current user is the shared guest account when
 * nobody is logged in: a permission check, a permission-or-own-account check (an id compared with
 * `user()`), and a login check through the application's login predicate.
 */
export const GUEST_BASE_CONTROLLER = `<?php
namespace App\\Http;
abstract class Controller
{
    protected function refuse()
    {
        throw new HttpException(403, 'Forbidden');
    }

    protected function checkPermission(string $permission): void
    {
        if (!user()->can($permission)) {
            $this->refuse();
        }
    }

    protected function checkPermissionOr(string $permission, callable $callback): void
    {
        if ($callback() !== true) {
            $this->checkPermission($permission);
        }
    }

    protected function checkPermissionOrCurrentUser(string $permission, int $userId): void
    {
        $this->checkPermissionOr($permission, function () use ($userId) {
            return $userId === user()->id;
        });
    }

    protected function preventGuestAccess(): void
    {
        if (!signedInUser()) {
            $this->refuse();
        }
    }
}
`;
