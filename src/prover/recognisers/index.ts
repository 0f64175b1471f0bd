/**
 * The recogniser registry: every framework recogniser, in the order they run. A test checks that each
 * module of this folder is listed here and has a fixture table.
 */
import { django } from './django.js';
import { express } from './express.js';
import { fastapi } from './fastapi.js';
import { flask } from './flask.js';
import { fastify } from './fastify.js';
import { jetty } from './jetty.js';
import { laravel } from './laravel.js';
import { livewire } from './livewire.js';
import { mcp } from './mcp.js';
import { nestjs } from './nestjs.js';
import { nextjs } from './nextjs.js';
import { reactRouter } from './react-router.js';
import { registration } from './registration.js';
import { remix } from './remix.js';
import { spring } from './spring.js';
import { stapler } from './stapler.js';
import { symfony } from './symfony.js';
import { tornado } from './tornado.js';
import { trpc } from './trpc.js';
import type { Recogniser } from './types.js';

export const RECOGNISERS: readonly Recogniser[] = [stapler, jetty, registration, symfony, laravel, livewire, remix, tornado, django, flask, fastapi, trpc, nextjs, express, reactRouter, spring, nestjs, fastify, mcp];

/** Modules of this folder that are not recognisers. */
export const SUPPORT_MODULES = ['index', 'types', 'shared', 'js-handlers', 'python-views'] as const;
