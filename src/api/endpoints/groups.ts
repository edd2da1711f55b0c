import { AddGroupRequest, GroupListResponse, GroupResponse, GroupTasksResponse, SetParallelRequest } from '../groups.js';
import { OkResponse } from '../tasks.js';
import { groupName, json, type Endpoint } from '../endpoint.js';

export const GROUPS_ENDPOINTS = {
  listGroups: { method: 'GET', path: '/v1/groups', doc: 'task groups: parallel limit, running and queued tasks', reply: json(GroupListResponse) },
  addGroup: {
    method: 'POST',
    path: '/v1/groups',
    doc: 'create a task group with a parallel limit',
    body: AddGroupRequest.describe('group request'),
    reply: json(GroupResponse, 201),
  },
  setGroupParallel: {
    method: 'POST',
    path: '/v1/groups/:name',
    doc: "change a group's parallel limit (a higher one starts queued tasks)",
    params: groupName,
    body: SetParallelRequest.describe('group request'),
    reply: json(GroupResponse),
  },
  removeGroup: {
    method: 'DELETE',
    path: '/v1/groups/:name',
    doc: 'remove a group (refused while it has tasks queued or running)',
    params: groupName,
    reply: json(OkResponse),
  },
  pauseGroup: {
    method: 'POST',
    path: '/v1/groups/:name/pause',
    doc: 'pause every running task of a group',
    params: groupName,
    reply: json(GroupTasksResponse),
  },
  resumeGroup: {
    method: 'POST',
    path: '/v1/groups/:name/resume',
    doc: 'resume every paused task of a group',
    params: groupName,
    reply: json(GroupTasksResponse),
  },
} as const satisfies Record<string, Endpoint>;
