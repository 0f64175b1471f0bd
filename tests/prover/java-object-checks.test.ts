/**
 * Java held-out semantics (part JAVAHO, ADR 0050), on fixtures written here: a Spring service called
 * through its interface runs its implementation; MyBatis mapper writes are operations; a controller
 * whose handlers check objects one by one (a data scope helper reading the logged-in user) leaves no
 * object to a permission naming none; a JWT builder's `compact()` purges nothing.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 4, fanOut: 25 });
}

const at = (findings: { function: string; entry: { function: string }; label: string }[]) => findings.map((f) => `${f.entry.function} -> ${f.function} (${f.label})`).sort();

const J = 'src/main/java/com/example/';

const securityUtils = `package com.example.common;
public class SecurityUtils {
    public static Long getUserId() {
        return getLoginUser().getUserId();
    }
    public static LoginUser getLoginUser() {
        return (LoginUser) SecurityContextHolder.getContext().getAuthentication().getPrincipal();
    }
}
`;

const serviceInterface = `package com.example.service;
public interface IUserService {
    void checkUserDataScope(Long userId);
    void checkUserAllowed(User user);
    User selectUserById(Long userId);
    int insertUser(User user);
    int updateUser(User user);
    int deleteUserById(Long userId);
}
`;

const serviceImpl = `package com.example.service.impl;
@Service
public class UserServiceImpl implements IUserService {
    @Autowired
    private UserMapper userMapper;

    @Override
    public void checkUserDataScope(Long userId) {
        if (!User.isAdmin(SecurityUtils.getUserId())) {
            List<User> users = userMapper.selectScoped(userId);
            if (users.isEmpty()) {
                throw new ServiceException("no access to this user");
            }
        }
    }

    @Override
    public void checkUserAllowed(User user) {
        if (user.isAdmin()) {
            throw new ServiceException("the administrator cannot be changed");
        }
    }

${[
  ['User selectUserById(Long userId)', 'selectUserById(userId)'],
  ['int insertUser(User user)', 'insertUser(user)'],
  ['int updateUser(User user)', 'updateUser(user)'],
  ['int deleteUserById(Long userId)', 'deleteUserById(userId)'],
]
  .map(([signature, call]) => `    @Override\n    public ${signature} {\n        return userMapper.${call};\n    }\n`)
  .join('\n')}}
`;

const controller = (opts: { infoCheck: string; editCheck: string }) => `package com.example.controller;
@RestController
@RequestMapping("/system/user")
public class UserController {
    @Autowired
    private IUserService userService;

    @PreAuthorize("@ss.hasPermi('system:user:query')")
    @GetMapping("/{userId}")
    public User getInfo(@PathVariable Long userId) {
        ${opts.infoCheck}
        return userService.selectUserById(userId);
    }

    @PreAuthorize("@ss.hasPermi('system:user:add')")
    @PostMapping
    public int add(@RequestBody User user) {
        return userService.insertUser(user);
    }

    @PreAuthorize("@ss.hasPermi('system:user:edit')")
    @PutMapping
    public int edit(@RequestBody User user) {
        ${opts.editCheck}
        return userService.updateUser(user);
    }

    @PreAuthorize("@ss.hasPermi('system:user:remove')")
    @DeleteMapping("/{userId}")
    public int remove(@PathVariable Long userId) {
        ${opts.editCheck.replace('user.getUserId()', 'userId')}
        return userService.deleteUserById(userId);
    }
}
`;

const app = (opts: { infoCheck: string; editCheck: string }) => ({
  [`${J}common/SecurityUtils.java`]: securityUtils,
  [`${J}service/IUserService.java`]: serviceInterface,
  [`${J}service/impl/UserServiceImpl.java`]: serviceImpl,
  [`${J}controller/UserController.java`]: controller(opts),
});

describe('the controller object-check norm', () => {
  it('reports the changes of a user the request chose when a sibling handler checks users one by one', async () => {
    const { findings } = await prove(app({ infoCheck: 'userService.checkUserDataScope(userId);', editCheck: '' }));
    // The creation (POST, no existing user) is not under the norm.
    expect(at(findings)).toEqual(['UserController.edit -> UserServiceImpl.updateUser (resource_unbound)', 'UserController.remove -> UserServiceImpl.deleteUserById (resource_unbound)']);
    expect(findings[0]?.unboundResource?.sentence).toContain('UserServiceImpl.checkUserDataScope');
  });

  it('reports nothing once the handlers check the object too', async () => {
    const { findings } = await prove(app({ infoCheck: 'userService.checkUserDataScope(userId);', editCheck: 'userService.checkUserDataScope(user.getUserId());' }));
    expect(findings).toEqual([]);
  });

  it('leaves a permission naming no object its authority when no handler checks objects', async () => {
    const { findings } = await prove(app({ infoCheck: '', editCheck: '' }));
    expect(findings).toEqual([]);
  });

  it('takes no helper that tests only the object (not the logged-in user) for an object check', async () => {
    const { findings } = await prove(app({ infoCheck: 'userService.checkUserAllowed(new User(userId));', editCheck: '' }));
    expect(findings).toEqual([]);
  });
});

describe('Java interface dispatch into the repository implementation', () => {
  const open = `package com.example.controller;
@RestController
public class OpenController {
    @Autowired
    private IUserService userService;

    @DeleteMapping("/users/{userId}")
    public int remove(@PathVariable Long userId) {
        return userService.deleteUserById(userId);
    }
}
`;

  it('follows a call on the interface into its one implementation and its mapper write', async () => {
    const { findings } = await prove({ [`${J}service/IUserService.java`]: serviceInterface, [`${J}service/impl/UserServiceImpl.java`]: serviceImpl, [`${J}controller/OpenController.java`]: open });
    expect(at(findings)).toEqual(['OpenController.remove -> UserServiceImpl.deleteUserById (unguarded_path)']);
    expect(findings[0]?.operation.id).toBe('mybatis.mapper-write');
  });

  it('does not guess among many implementations', async () => {
    const impl = (n: number) => serviceImpl.replace('class UserServiceImpl', `class UserServiceImpl${n}`);
    const files: Record<string, string> = { [`${J}service/IUserService.java`]: serviceInterface, [`${J}controller/OpenController.java`]: open };
    for (const n of [1, 2, 3, 4]) files[`${J}service/impl/UserServiceImpl${n}.java`] = impl(n);
    expect((await prove(files)).findings).toEqual([]);
  });

  it('takes no Jackson object mapper for a database mapper', async () => {
    const json = open.replace('return userService.deleteUserById(userId);', 'objectMapper.updateValue(target, userId);\n        return 0;');
    expect((await prove({ [`${J}controller/OpenController.java`]: json })).findings).toEqual([]);
  });
});

describe('a builder serialising with compact()', () => {
  const tokens = (line: string) => `package com.example.controller;
@RestController
public class TokenController {
    @PostMapping("/tokens/{name}")
    public String issue(@PathVariable String name) {
        ${line}
        return name;
    }
}
`;

  it('is no purge (a JWT builder), while a store compaction is', async () => {
    const jwt = await prove({ [`${J}controller/TokenController.java`]: tokens('String token = Jwts.builder().setSubject(name).signWith(SignatureAlgorithm.HS512, secret).compact();') });
    expect(jwt.findings).toEqual([]);
    const store = await prove({ [`${J}controller/TokenController.java`]: tokens('store.compact();') });
    expect(store.findings.map((f) => f.operation.id)).toEqual(['java.data-purge']);
  });
});

describe('the logged-in user read through the project\'s own accessors', () => {
  const baseController = `package com.example.common;
public class BaseController {
    public LoginUser getLoginUser() {
        return SecurityUtils.getLoginUser();
    }
}
`;
  const profile = (write: string) => `package com.example.controller;
@RestController
public class ProfileController extends BaseController {
    @Autowired
    private UserMapper userMapper;

    @PreAuthorize("isAuthenticated()")
    @PutMapping("/profile")
    public int updateProfile(@RequestBody User user) {
        ${write}
    }
}
`;
  const files = (write: string) => ({ [`${J}common/SecurityUtils.java`]: securityUtils, [`${J}common/BaseController.java`]: baseController, [`${J}controller/ProfileController.java`]: profile(write) });

  it('takes a write of the user a base controller accessor returns for the caller\'s own', async () => {
    const own = 'User current = getLoginUser().getUser();\n        current.setNickName(user.getNickName());\n        return userMapper.updateUser(current);';
    expect((await prove(files(own))).findings).toEqual([]);
  });

  it('still reports a write of the user the request sent', async () => {
    const findings = (await prove(files('return userMapper.updateUser(user);'))).findings;
    expect(findings.map((f) => `${f.function} (${f.label})`)).toEqual(['ProfileController.updateProfile (authn_only)']);
  });
});

describe('container and cloud control from a Stapler web method', () => {
  const management = (check: string, call: string) => `package org.example;
public class ManagementServer implements Describable<ManagementServer> {
    @RequirePOST
    public void doControlSubmit(@QueryParameter("stopId") String stopId, StaplerRequest req, StaplerResponse rsp) throws IOException {
        ${check}
        ${call}
        rsp.sendRedirect(".");
    }
}
`;
  const file = 'src/main/java/org/example/ManagementServer.java';
  const admin = 'Jenkins.get().checkPermission(Jenkins.ADMINISTER);';

  it('reports stopping a container and creating a key pair without a permission check', async () => {
    for (const call of ['client.stopContainerCmd(stopId).exec();', 'KeyPair key = ec2.createKeyPair(new CreateKeyPairRequest(stopId)).getKeyPair();']) {
      const { findings } = await prove({ [file]: management('', call) });
      expect(findings.map((f) => f.operation.kind)).toEqual(['server_control']);
      expect((await prove({ [file]: management(admin, call) })).findings).toEqual([]);
    }
  });

  it('takes listing containers for no control, and a key pair\'s private key for a secret', async () => {
    expect((await prove({ [file]: management('', 'client.listContainersCmd().exec();') })).findings).toEqual([]);
    const material = await prove({ [file]: management('', 'rsp.addHeader("key", pair.getKeyMaterial());') });
    expect(material.findings.map((f) => f.operation.id)).toEqual(['jenkins.secret-plaintext']);
  });
});

describe('an item permission asked of the root', () => {
  const connection = (receiver: string, permission: string) => `package org.example;
public class Connection extends AbstractDescribableImpl<Connection> {
    @Extension
    public static class DescriptorImpl extends Descriptor<Connection> {
        public ListBoxModel doFillApiTokenIdItems(@AncestorInPath Item item, @QueryParameter String url, @QueryParameter String apiTokenId) {
            if (${receiver}.hasPermission(${permission})) {
                return new StandardListBoxModel().includeEmptyValue().includeMatchingAs(ACL.SYSTEM, Jenkins.get(), StandardCredentials.class, URIRequirementBuilder.fromUri(url).build(), CredentialsMatchers.always());
            }
            return new StandardListBoxModel().includeCurrentValue(apiTokenId);
        }
    }
}
`;
  const file = 'src/main/java/org/example/Connection.java';

  it('does not grant listing the root credentials (Item.CONFIGURE on Jenkins.get())', async () => {
    const { findings } = await prove({ [file]: connection('Jenkins.get()', 'Item.CONFIGURE') });
    expect(findings.map((f) => f.operation.id)).toEqual(['jenkins.credentials-lookup']);
  });

  it('leaves an administrator on the root, and the item permission on the item, their authority', async () => {
    expect((await prove({ [file]: connection('Jenkins.get()', 'Jenkins.ADMINISTER') })).findings).toEqual([]);
    expect((await prove({ [file]: connection('item', 'Item.CONFIGURE') })).findings).toEqual([]);
  });
});

describe('a registration app behind Spring Security', () => {
  const config = () => `package com.example.spring;
@Configuration
@EnableWebSecurity
public class SecurityConfig extends WebSecurityConfigurerAdapter {
    @Override
    protected void configure(final HttpSecurity http) throws Exception {
        http.authorizeRequests()
            .antMatchers("/login*", "/user/registration*", "/registrationConfirm*").permitAll()
            .anyRequest().hasAuthority("READ_PRIVILEGE");
    }
}
`;
  const h2 = (profile: string) => `package com.example.spring;
@Configuration
@Order(1)
${profile}
public class H2Config extends WebSecurityConfigurerAdapter {
    @Override
    protected void configure(final HttpSecurity http) throws Exception {
        http.authorizeRequests().antMatchers("/h2/**").permitAll();
    }
}
`;
  const controller = (name: string, register = 'registerUserAccount', confirm = 'confirmRegistration') => `package com.example.web;
@Controller
public class ${name} {
    @Autowired
    private UserRepository userRepository;

    @PostMapping("/user/registration")
    @ResponseBody
    public String ${register}(@Valid final UserDto accountDto) {
        userRepository.save(new User(accountDto.getEmail()));
        return "success";
    }

    @GetMapping("/registrationConfirm")
    public String ${confirm}(@RequestParam("token") final String token) {
        final User user = tokens.findByToken(token).getUser();
        user.setEnabled(true);
        userRepository.save(user);
        return "redirect:/login";
    }

    @PostMapping("/user/update")
    public String update(@RequestBody User user) {
        userRepository.save(user);
        return "ok";
    }
}
`;
  const files = (profile: string, name: string, methods: [string, string] = ['registerUserAccount', 'confirmRegistration']) => ({
    'src/main/java/com/example/spring/SecurityConfig.java': config(),
    'src/main/java/com/example/spring/H2Config.java': h2(profile),
    [`src/main/java/com/example/web/${name}.java`]: controller(name, ...methods),
  });

  it('reads the deployed chain, not a development profile\'s, and takes the registration flow for what it is', async () => {
    const { findings } = await prove(files('@Profile("dev")', 'RegistrationController'));
    expect(findings).toEqual([]);
  });

  it('applies the first chain when it is not limited to a development profile', async () => {
    // The H2 chain (order 1, no securityMatcher) serves every path and decides nothing for these routes:
    // the update is open, the registration and its confirmation are the login flow's own writes.
    const { findings } = await prove(files('', 'AccountController'));
    expect(findings.map((f) => f.entry.function)).toEqual(['AccountController.update']);
  });

  it('takes handlers whose names and routes say nothing of the flow, outside a flow controller, for ordinary writes', async () => {
    const plain = files('', 'AccountController', ['create', 'enable']);
    const path = 'src/main/java/com/example/web/AccountController.java';
    plain[path] = (plain[path] ?? '').replace('"/user/registration"', '"/user/create"').replace('"/registrationConfirm"', '"/user/enable"');
    const { findings } = await prove(plain);
    // `create` saves the user it builds (`new User(...)`): the request's own creation.
    expect(findings.map((f) => f.entry.function).sort()).toEqual(['AccountController.enable', 'AccountController.update']);
  });
});

describe('permission annotations and helpers named for a permission', () => {
  const jobs = (annotation: string, check: string) => `package com.example.controller;
@Controller
@RequestMapping("/jobgroup")
public class JobGroupController {
    @Resource
    private JobGroupMapper jobGroupMapper;

    @RequestMapping("/remove")
    @ResponseBody
    ${annotation}
    public String remove(HttpServletRequest request, @RequestParam("id") int id) {
        ${check}
        jobGroupMapper.remove(id);
        return "ok";
    }
}
`;
  const file = `${J}controller/JobGroupController.java`;

  it('takes an annotation naming the role it requires, and Shiro\'s and Sa-Token\'s, for a permission', async () => {
    for (const annotation of ['@XxlSso(role = Consts.ADMIN_ROLE)', '@RequiresPermissions("jobgroup:remove")', '@SaCheckRole("admin")']) {
      expect((await prove({ [file]: jobs(annotation, '') })).findings).toEqual([]);
    }
  });

  it('takes a thrower or a predicate named for a permission for a check, and nothing else', async () => {
    expect((await prove({ [file]: jobs('', 'JobGroupPermissionUtil.validJobGroupPermission(request, id);') })).findings).toEqual([]);
    expect((await prove({ [file]: jobs('', 'if (!PermissionUtil.hasJobGroupPermission(request, id)) {\n            return "denied";\n        }') })).findings).toEqual([]);
    for (const [annotation, check] of [['@XxlSso(login = false)', ''], ['', 'LOGGER.info("removing {}", id);'], ['', 'PermissionUtil.hasJobGroupPermission(request, id);']]) {
      expect((await prove({ [file]: jobs(annotation ?? '', check ?? '') })).findings.map((f) => f.operation.id)).toEqual(['mybatis.mapper-write']);
    }
  });
});
