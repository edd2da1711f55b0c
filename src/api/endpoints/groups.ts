import { AddGroupRequest, GroupListResponse, GroupResponse, GroupTasksResponse, SetParallelRequest } from '../groups.js';
import { OkResponse } from '../tasks.js';
import { groupName, json, type EndpointSpec } from '../endpoint.js';

export const GROUPS_ENDPOINTS = {
  listGroups: { doc: 'task groups: parallel limit, running and queued tasks', reply: json(GroupListResponse) },
  addGroup: {
    doc: 'create a task group with a parallel limit',
    body: AddGroupRequest.describe('group request'),
    reply: json(GroupResponse, 201),
  },
  setGroupParallel: {
    doc: "change a group's parallel limit (a higher one starts queued tasks)",
    params: groupName,
    body: SetParallelRequest.describe('group request'),
    reply: json(GroupResponse),
  },
  removeGroup: {
    doc: 'remove a group (refused while it has tasks queued or running)',
    params: groupName,
    reply: json(OkResponse),
  },
  pauseGroup: {
    doc: 'pause every running task of a group',
    params: groupName,
    reply: json(GroupTasksResponse),
  },
  resumeGroup: {
    doc: 'resume every paused task of a group',
    params: groupName,
    reply: json(GroupTasksResponse),
  },
} as const satisfies Record<string, EndpointSpec>;
