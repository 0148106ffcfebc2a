print("query")
