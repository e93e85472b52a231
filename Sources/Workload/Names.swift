/// Word lists for generated text. Real-looking values make stores and import files that users
/// can read; their lengths match what apps store.
enum Names {
    static let categories: [StaticString] = [
        "Groceries", "Rent", "Utilities", "Transport", "Fuel", "Dining Out", "Coffee", "Travel",
        "Hotels", "Flights", "Insurance", "Health", "Pharmacy", "Fitness", "Clothing", "Electronics",
        "Books", "Music", "Movies", "Games", "Gifts", "Charity", "Education", "Childcare", "Pets",
        "Home Repair", "Furniture", "Garden", "Phone", "Internet", "Streaming", "Software", "Office Supplies",
        "Business Meals", "Taxes", "Bank Fees", "Parking", "Tolls", "Car Repair", "Haircut", "Cosmetics",
        "Laundry", "Postage", "Subscriptions", "Events", "Sports", "Hobbies", "Alcohol", "Snacks", "Other",
    ]
    static let albums: [StaticString] = [
        "Holiday", "Family", "Friends", "Work", "Pets", "Food", "Nature", "City", "Beach", "Mountains",
        "Birthday", "Wedding", "Concert", "Sports", "Screenshots", "Documents", "Selfies", "Garden",
        "Road Trip", "Favourites",
    ]
    static let adjectives: [StaticString] = [
        "Lunch", "Dinner", "Weekly", "Monthly", "Quick", "Late", "Early", "Team", "Family", "Annual",
        "Airport", "Office", "Client", "Corner", "Online", "Shared",
    ]
    static let nouns: [StaticString] = [
        "order", "payment", "refill", "ticket", "booking", "purchase", "visit", "renewal", "delivery",
        "repair", "fee", "subscription", "snack", "round", "bill", "trip",
    ]
}
