/** A string attribute value as DynamoDB's low-level API (and `@aws-sdk/client-dynamodb`) writes it. */
export interface AttributeValue {
  S: string;
}
