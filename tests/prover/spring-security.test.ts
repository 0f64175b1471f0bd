/**
 * Spring MVC entries proved end to end: a controller method reaching a repository write with no check is
 * reported; method security (`@PreAuthorize`, `@Secured`) at class or method level and the filter chain's
 * URL rules (first match wins, bound to the route the mappings give) discharge it by the kind they prove;
 * `permitAll()` and `isAuthenticated()` are no permission.
 */
import { describe, expect, it } from 'vitest';
import { proveChange } from '../../src/prover/prove.js';

function prove(files: Record<string, string>) {
  return proveChange({ root: '/repo', files: Object.entries(files).map(([path, text]) => ({ path, text })), touched: null, maxDepth: 3, fanOut: 25 });
}

const controller = (classAnnotations: string, methodAnnotations: string, body = 'reportRepository.deleteById(id);') => `package app.web;
import org.springframework.web.bind.annotation.*;
import org.springframework.security.access.prepost.PreAuthorize;
@RestController
@RequestMapping("/api/reports")
${classAnnotations}
public class ReportController {
  private final ReportRepository reportRepository;
  ReportController(ReportRepository reportRepository) { this.reportRepository = reportRepository; }
${methodAnnotations}
  @DeleteMapping("/{id}")
  public void delete(@PathVariable long id) {
    ${body}
  }
}
`;

const chain = (rules: string) => `package app.config;
@Configuration
@EnableWebSecurity
@EnableMethodSecurity
public class SecurityConfig {
  @Bean
  SecurityFilterChain filterChain(HttpSecurity http) throws Exception {
    http.csrf(c -> c.disable())
        .authorizeHttpRequests(auth -> auth
${rules}
        );
    return http.build();
  }
}
`;

async function labels(files: Record<string, string>): Promise<string[]> {
  const result = await prove(files);
  return result.findings.filter((f) => f.path === 'src/main/java/app/web/ReportController.java').map((f) => f.label);
}

describe('Spring MVC controllers', () => {
  it('reports a mapped method that deletes by a path variable with no check', async () => {
    const result = await prove({ 'src/main/java/app/web/ReportController.java': controller('', '') });
    expect(result.findings).toHaveLength(1);
    expect(result.findings[0]?.entry.framework).toBe('spring');
    expect(result.findings[0]?.line).toBe(13);
    expect(result.findings[0]?.label).toBe('unguarded_path');
  });

  it('@PreAuthorize with a role on the method or the class discharges it; @Secured too', async () => {
    expect(await labels({ 'src/main/java/app/web/ReportController.java': controller('', `  @PreAuthorize("hasRole('ADMIN')")`) })).toEqual([]);
    expect(await labels({ 'src/main/java/app/web/ReportController.java': controller(`@PreAuthorize("hasAuthority('reports:write')")`, '') })).toEqual([]);
    expect(await labels({ 'src/main/java/app/web/ReportController.java': controller('', '  @Secured("ROLE_ADMIN")') })).toEqual([]);
  });

  it('@PreAuthorize("isAuthenticated()") is a login only, and a method-level one overrides the class-level role', async () => {
    expect(await labels({ 'src/main/java/app/web/ReportController.java': controller('', '  @PreAuthorize("isAuthenticated()")') })).toEqual(['authn_only']);
    expect(await labels({ 'src/main/java/app/web/ReportController.java': controller(`@PreAuthorize("hasRole('ADMIN')")`, '  @PreAuthorize("isAuthenticated()")') })).toEqual(['authn_only']);
    expect(await labels({ 'src/main/java/app/web/ReportController.java': controller('', `  @PreAuthorize("hasRole('USER')")`) })).toEqual(['authn_only']);
  });

  it('@PostAuthorize runs after the method: no check', async () => {
    expect(await labels({ 'src/main/java/app/web/ReportController.java': controller('', `  @PostAuthorize("hasRole('ADMIN')")`) })).toEqual(['unguarded_path']);
  });

  it('a programmatic role test that throws AccessDeniedException discharges it; one that only logs does not', async () => {
    const guarded = `if (!SecurityContextHolder.getContext().getAuthentication().getAuthorities().contains(ADMIN)) {
      throw new AccessDeniedException("admins only");
    }
    reportRepository.deleteById(id);`;
    expect(await labels({ 'src/main/java/app/web/ReportController.java': controller('', '', guarded) })).toEqual([]);
    const logged = `if (!SecurityContextHolder.getContext().getAuthentication().getAuthorities().contains(ADMIN)) {
      log.warn("not an admin");
    }
    reportRepository.deleteById(id);`;
    expect(await labels({ 'src/main/java/app/web/ReportController.java': controller('', '', logged) })).toEqual(['unguarded_path']);
  });
});

describe('Spring Security filter chains', () => {
  const files = (rules: string) => ({ 'src/main/java/app/web/ReportController.java': controller('', ''), 'src/main/java/app/config/SecurityConfig.java': chain(rules) });

  it('a role rule on a matcher covering the route discharges it', async () => {
    expect(await labels(files('            .requestMatchers("/api/reports/**").hasRole("ADMIN")\n            .anyRequest().authenticated()'))).toEqual([]);
  });

  it('anyRequest().authenticated() is a login only', async () => {
    expect(await labels(files('            .requestMatchers("/api/admin/**").hasRole("ADMIN")\n            .anyRequest().authenticated()'))).toEqual(['authn_only']);
  });

  it('the first matching rule decides: a broad authenticated() before the role rule leaves a login only', async () => {
    expect(await labels(files('            .requestMatchers("/api/**").authenticated()\n            .requestMatchers("/api/reports/**").hasRole("ADMIN")'))).toEqual(['authn_only']);
  });

  it('a rule for another verb does not cover the DELETE mapping; one for DELETE does', async () => {
    expect(await labels(files('            .requestMatchers(HttpMethod.POST, "/api/reports/**").hasRole("ADMIN")\n            .anyRequest().authenticated()'))).toEqual(['authn_only']);
    expect(await labels(files('            .requestMatchers(HttpMethod.DELETE, "/api/reports/**").hasRole("ADMIN")\n            .anyRequest().authenticated()'))).toEqual([]);
  });

  it('the older antMatchers of a WebSecurityConfigurerAdapter count the same way', async () => {
    const adapter = `package app.config;
@EnableWebSecurity
public class SecurityConfig extends WebSecurityConfigurerAdapter {
  @Override
  protected void configure(HttpSecurity http) throws Exception {
    http.authorizeRequests()
        .antMatchers("/api/reports/*").hasAnyRole("ADMIN", "EDITOR")
        .anyRequest().authenticated();
  }
}
`;
    expect(await labels({ 'src/main/java/app/web/ReportController.java': controller('', ''), 'src/main/java/app/config/SecurityConfig.java': adapter })).toEqual([]);
  });

  it('@PreAuthorize is inert where the application does not enable method security; @Secured needs securedEnabled', async () => {
    const rules = '            .anyRequest().authenticated()';
    const withoutMethodSecurity = chain(rules).replace('@EnableMethodSecurity\n', '');
    const guarded = controller('', `  @PreAuthorize("hasRole('ADMIN')")`);
    expect(await labels({ 'src/main/java/app/web/ReportController.java': guarded, 'src/main/java/app/config/SecurityConfig.java': chain(rules) })).toEqual([]);
    const inert = await prove({ 'src/main/java/app/web/ReportController.java': guarded, 'src/main/java/app/config/SecurityConfig.java': withoutMethodSecurity });
    expect(inert.findings.map((f) => [f.path, f.label])).toEqual([['src/main/java/app/web/ReportController.java', 'authn_only']]);
    const secured = controller('', '  @Secured("ROLE_ADMIN")');
    expect(await labels({ 'src/main/java/app/web/ReportController.java': secured, 'src/main/java/app/config/SecurityConfig.java': chain(rules) })).toEqual(['authn_only']);
    const securedOn = chain(rules).replace('@EnableMethodSecurity', '@EnableGlobalMethodSecurity(securedEnabled = true)');
    expect(await labels({ 'src/main/java/app/web/ReportController.java': secured, 'src/main/java/app/config/SecurityConfig.java': securedOn })).toEqual([]);
  });
});

