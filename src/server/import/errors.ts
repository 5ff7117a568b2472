/** An upload that is not a well-formed import request (not multipart, no files, a bad form field): 400 or 415. */
export class UploadFormError extends Error {
  readonly statusCode: number;
  constructor(statusCode: number, message: string) {
    super(message);
    this.statusCode = statusCode;
  }
}
