import { graphql, type ResultOf } from './graphql.js';

/** What a row of the list shows, and what a live event carries to keep a row current. */
export const MemoryRow = graphql(`
  fragment MemoryRow on Memory {
    id quote type kind status mentionCount lastMentionedAt createdAt review
  }
`);
export type Row = ResultOf<typeof MemoryRow>;

export const ViewerQuery = graphql(`
  query Viewer {
    viewer {
      __typename
      ... on Viewer { role space { id name memoryCount timeZone } }
      ... on Error { message }
    }
  }
`);

export const SpacesQuery = graphql(`
  query Spaces {
    spaces { __typename ... on SpacesSuccess { data { id name memoryCount } } ... on Error { message } }
  }
`);

export const MemoriesQuery = graphql(`
  query Memories($first: Int, $after: String, $filter: MemoryFilter, $orderBy: MemoryOrder, $spaceId: ID) {
    memories(first: $first, after: $after, filter: $filter, orderBy: $orderBy, spaceId: $spaceId) {
      __typename
      ... on MemoryConnection {
        edges { cursor node { ...MemoryRow } }
        pageInfo { endCursor hasNextPage }
      }
      ... on Error { message }
    }
  }
`, [MemoryRow]);

export const SearchQuery = graphql(`
  query Search($query: String!, $first: Int, $spaceId: ID) {
    recallSpace(query: $query, first: $first, spaceId: $spaceId) {
      __typename
      ... on RecallResult {
        nothingOnFile
        statements { score memory { ...MemoryRow } }
        inferences { score memory { id } }
      }
      ... on Error { message }
    }
  }
`, [MemoryRow]);

export const MemoryEventsSubscription = graphql(`
  subscription MemoryEvents($spaceId: ID) {
    memoryEvents(spaceId: $spaceId) {
      kind memoryId relatedId gone
      event { id }
      memory { ...MemoryRow }
      related { ...MemoryRow }
    }
  }
`, [MemoryRow]);
export type Change = ResultOf<typeof MemoryEventsSubscription>['memoryEvents'];

export const BulkOutcome = graphql(`
  fragment BulkOutcome on BulkResult { changed results { id outcome } }
`);

export const MuteMemoriesMutation = graphql(`
  mutation MuteMemories($ids: [ID!]!, $spaceId: ID) {
    muteMemories(ids: $ids, spaceId: $spaceId) { __typename ...BulkOutcome ... on Error { message } }
  }
`, [BulkOutcome]);

export const UnmuteMemoriesMutation = graphql(`
  mutation UnmuteMemories($ids: [ID!]!, $spaceId: ID) {
    unmuteMemories(ids: $ids, spaceId: $spaceId) { __typename ...BulkOutcome ... on Error { message } }
  }
`, [BulkOutcome]);

export const ForgetMemoriesMutation = graphql(`
  mutation ForgetMemories($ids: [ID!]!, $spaceId: ID) {
    forgetMemories(ids: $ids, confirm: true, spaceId: $spaceId) { __typename ...BulkOutcome ... on Error { message } }
  }
`, [BulkOutcome]);

export const CleanUpMutation = graphql(`
  mutation CleanUp($categories: [MemoryType!]!, $scope: CleanupScope!, $dryRun: Boolean, $confirm: Boolean, $spaceId: ID) {
    cleanUp(categories: $categories, scope: $scope, dryRun: $dryRun, confirm: $confirm, spaceId: $spaceId) {
      __typename
      ... on CleanUpResult { dryRun total counts { type count } }
      ... on Error { message }
    }
  }
`);

export const MemoryQuery = graphql(`
  query Memory($id: ID!) {
    memory(id: $id) {
      __typename
      ... on Memory {
        ...MemoryRow
        attribution explanation context basis current saidAt
        entities themes resolution
        conversation { id }
        mentions(first: 500) { id quote tier score saidAt conversationId }
        correctionChain { id quote status createdAt }
        supersedes { id quote status }
        supersededBy { id quote status }
        correctedBy { id quote status }
        mergedInto { id quote status }
        currentVersion { id }
      }
      ... on Error { message }
    }
  }
`, [MemoryRow]);
export type MemoryDetail = Extract<ResultOf<typeof MemoryQuery>['memory'], { __typename: 'Memory' }>;

export const UnmergeMutation = graphql(`
  mutation Unmerge($id: ID!) {
    unmerge(memoryId: $id) { __typename ... on Memory { id status } ... on Error { message } }
  }
`);

export const MarkErroneousMutation = graphql(`
  mutation MarkErroneous($id: ID!, $correctedBy: ID) {
    markErroneous(memoryId: $id, correctedBy: $correctedBy) { __typename ... on Memory { id status } ... on Error { message } }
  }
`);

export const InferencesQuery = graphql(`
  query Inferences($review: Review, $spaceId: ID) {
    inferences(review: $review, first: 200, spaceId: $spaceId) {
      __typename
      ... on InferencesSuccess { data { ...MemoryRow basis explanation } }
      ... on Error { message }
    }
  }
`, [MemoryRow]);

export const ReviewInferenceMutation = graphql(`
  mutation ReviewInference($id: ID!, $decision: ReviewDecision!, $spaceId: ID) {
    reviewInference(id: $id, decision: $decision, spaceId: $spaceId) {
      __typename ... on Memory { id review } ... on Error { message }
    }
  }
`);
