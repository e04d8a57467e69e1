import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authResponse,
  changePasswordBody,
  envelope,
  errorMessage,
  forgotPasswordBody,
  generateTokenBody,
  generateTokenResponse,
  guestSignInBody,
  guestSignInResponse,
  logoutBody,
  otpSentResponse,
  profileSchema,
  resetPasswordBody,
  sendOtpBody,
  signInBody,
  signUpBody,
  updateProfileBody,
  message,
} from '@masar/shared';
import { AppError } from '../../lib/errors.ts';
import type { RequestMeta } from './auth.service.ts';

/** Name and path of the refresh-token cookie (HttpOnly; only /generateToken receives it). */
export const REFRESH_COOKIE = 'masar_rt';
export const REFRESH_COOKIE_PATH = '/api/v1/generateToken';

/** Success messages of this module (spec §8 "success messages"), en/ar. */

const nullData = envelope(z.null());

/**
 * Accounts and sessions (issue 2, spec §7): guest sign-in, OTP, sign-up, sign-in, token
 * regeneration, logout, password change/reset, profile. Business rules in auth.service.ts.
 */
export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const svc = app.container.services.auth;
  const tags = ['auth'];
  // Per-IP brute-force guard on the endpoints that check secrets or send SMS (in-memory store).
  const perIp = app.config.AUTH_RATE_PER_IP_PER_MIN > 0 ? { max: app.config.AUTH_RATE_PER_IP_PER_MIN, timeWindow: 60_000 } : false;
  const open = { auth: 'none' as const, rateLimit: perIp };

  const meta = (req: FastifyRequest, device?: Record<string, unknown>): RequestMeta => ({
    ip: req.ip,
    lang: req.lang,
    guestSessionId: req.auth?.isGuest ? req.auth.sessionId : undefined,
    device: device ?? {
      ipAddress: req.ip,
      userAgent: req.headers['user-agent']?.slice(0, 300),
      platform: typeof req.headers.platform === 'string' ? req.headers.platform.slice(0, 20) : undefined,
    },
  });
  /**
   * The refresh token rides in an HttpOnly, SameSite=Strict cookie scoped to /generateToken, so
   * page scripts never see it (issue 6); Secure whenever the request came over https.
   */
  const setRefreshCookie = (req: FastifyRequest, reply: FastifyReply, refreshToken: string) =>
    reply.setCookie(REFRESH_COOKIE, refreshToken, {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.protocol === 'https',
      path: REFRESH_COOKIE_PATH,
      maxAge: app.config.REFRESH_TOKEN_TTL_DAYS * 86_400,
    });
  const clearRefreshCookie = (req: FastifyRequest, reply: FastifyReply) =>
    reply.clearCookie(REFRESH_COOKIE, { httpOnly: true, sameSite: 'strict', secure: req.protocol === 'https', path: REFRESH_COOKIE_PATH });

  const sessionOf = (req: FastifyRequest) => {
    if (!req.auth) throw new AppError('UNAUTHORIZED');
    return req.auth.sessionId;
  };

  app.post(
    '/guest/signIn',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Guest sign-in: a token for a visitor without an account',
        body: guestSignInBody,
        response: { 200: envelope(guestSignInResponse) },
      },
    },
    async (req, reply) => {
      const token = await svc.guestSignIn({ ...req.body, ip: req.ip });
      setRefreshCookie(req, reply, token.refreshToken);
      return { message: message('auth.guest', req.lang), data: { token } };
    },
  );

  app.post(
    '/generateToken',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Regenerate the access token',
        description:
          'With a still-valid access token of the same session: 200 with a message containing "407" and the same token (keep it). Otherwise the refresh token is rotated: a new access token and a new refresh token (the old one is single-use: presenting it again revokes the session family, except within REFRESH_REUSE_GRACE_SECONDS (30 s) of its rotation, when it gets a new token of the same family). Unknown, revoked or expired refresh token: 401.',
        body: generateTokenBody,
        response: { 200: envelope(generateTokenResponse) },
      },
    },
    async (req, reply) => {
      const refToken = req.body?.refToken ?? req.cookies[REFRESH_COOKIE];
      if (!refToken) throw new AppError('UNAUTHORIZED');
      const r = await svc.generateToken(refToken, req.body?.accessToken).catch((e: unknown) => {
        clearRefreshCookie(req, reply);
        throw e;
      });
      if (r.kept) return { message: errorMessage('TOKEN_STILL_VALID', req.lang), data: { accessToken: r.accessToken, accessExpireAt: r.accessExpireAt } };
      if (r.token.refreshToken) setRefreshCookie(req, reply, r.token.refreshToken);
      return { message: message('auth.tokenRotated', req.lang), data: r.token };
    },
  );

  app.post(
    '/account/sendOtp',
    {
      config: open,
      schema: {
        tags,
        summary: 'Send a 4-digit code by SMS (signup | login | reset)',
        description:
          'Valid 5 minutes, at most 5 wrong attempts. Rate-limited per phone and per IP (429 RATE_LIMITED). signup: 409 PHONE_EXISTS; login/reset: 404 NOT_REGISTERED.',
        body: sendOtpBody,
        response: { 200: envelope(otpSentResponse) },
      },
    },
    async (req) => ({ message: message('auth.otpSent', req.lang), data: await svc.sendOtp(req.body.phone, req.body.purpose, meta(req)) }),
  );

  app.post(
    '/account/signUp',
    {
      config: open,
      schema: {
        tags,
        summary: 'Create an account (shipper 1, carrier 2, broker 3) with a signup OTP; starts pending',
        body: signUpBody,
        response: { 200: envelope(authResponse) },
      },
    },
    async (req, reply) => {
      const data = await svc.signUp(req.body, meta(req));
      setRefreshCookie(req, reply, data.token.refreshToken);
      return { message: message('auth.signedUp', req.lang), data };
    },
  );

  app.post(
    '/account/signIn',
    {
      config: open,
      schema: { tags, summary: 'Sign in by phone + password or phone + login OTP', body: signInBody, response: { 200: envelope(authResponse) } },
    },
    async (req, reply) => {
      const data = await svc.signIn(req.body, meta(req));
      setRefreshCookie(req, reply, data.token.refreshToken);
      return { message: message('auth.signedIn', req.lang), data };
    },
  );

  app.post(
    '/account/logout',
    {
      // a team member signs their own session out whatever their role (issue 8)
      config: { auth: 'token', team: 'self' },
      schema: {
        tags,
        summary: 'Sign out (device info per spec §3); the session and its refresh tokens are revoked',
        body: logoutBody,
        response: { 200: nullData },
      },
    },
    async (req, reply) => {
      await svc.logout(sessionOf(req), { ...req.body });
      // the session's real-time connections close now on every instance, not at the next sweep
      app.container.realtime?.requestSweep();
      clearRefreshCookie(req, reply);
      return { message: message('auth.loggedOut', req.lang), data: null };
    },
  );

  app.post(
    '/account/changePassword',
    {
      // always the signed-in person's own password, also for a team member (issue 8)
      config: { auth: 'user', team: 'self' },
      schema: { tags, summary: 'Change password; other sessions are signed out', body: changePasswordBody, response: { 200: nullData } },
    },
    async (req) => {
      const user = app.requireUser(req);
      await svc.changePassword(user.id, sessionOf(req), req.body.oldPassword, req.body.newPassword);
      app.container.realtime?.requestSweep();
      return { message: message('auth.passwordChanged', req.lang), data: null };
    },
  );

  app.post(
    '/account/forgotPassword',
    { config: open, schema: { tags, summary: 'Send a reset OTP by SMS', body: forgotPasswordBody, response: { 200: envelope(otpSentResponse) } } },
    async (req) => ({ message: message('auth.otpSent', req.lang), data: await svc.sendOtp(req.body.phone, 'reset', meta(req)) }),
  );

  app.post(
    '/account/resetPassword',
    {
      config: open,
      schema: { tags, summary: 'Set a new password with the reset OTP; every session is signed out', body: resetPasswordBody, response: { 200: nullData } },
    },
    async (req) => {
      await svc.resetPassword(req.body.phone, req.body.otpId, req.body.otp, req.body.newPassword);
      app.container.realtime?.requestSweep();
      return { message: message('auth.passwordReset', req.lang), data: null };
    },
  );

  app.get(
    '/accountDetails',
    {
      config: { auth: 'user', team: 'self' },
      schema: {
        tags,
        summary: "The signed-in user's profile; a team member's is the owner's account they act for, with `team`",
        response: { 200: envelope(profileSchema) },
      },
    },
    async (req) => ({ message: message('common.ok', req.lang), data: await svc.profile(app.requireUser(req).id, req.lang) }),
  );

  app.patch(
    '/account',
    {
      config: { auth: 'user' },
      schema: { tags, summary: 'Edit profile basics (names, company, e-mail)', body: updateProfileBody, response: { 200: envelope(profileSchema) } },
    },
    async (req) => ({ message: message('auth.profileSaved', req.lang), data: await svc.updateProfile(app.requireUser(req).id, req.body, req.lang) }),
  );
}
